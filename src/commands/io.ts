import { ApiClient } from '../client/http.js';
import { type ClientConfig, requireKey, resolveConfig } from '../client/config.js';
import type { Stream } from './output/render.js';
import type { View } from './output/views.js';
import * as streams from './streams.js';

/** Flags every client command takes. */
export interface GlobalFlags {
  json?: boolean;
  quiet?: boolean;
  wide?: boolean;
  baseUrl?: string;
  apiKey?: string;
}

/** What a runner touches outside itself: streams, environment, the API client and the renderer. */
export interface Io {
  stdout: Stream;
  stderr: Stream;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  flags: GlobalFlags;
  config(): ClientConfig;
  /** The API client with the key; says how to get one when there is none (no sandbox state). */
  client(): ApiClient;
  /** A client for what needs no key (`GET /sandbox/health`). */
  publicClient(): ApiClient;
  /** Prints a result on stdout as --json, --quiet or for people. */
  show(data: unknown, view: View, context?: { now?: Date }): Promise<void>;
  /** A note for people on stderr; silent under --json and --quiet. */
  note(text: string): void;
  /** True when a person is at the keyboard: prompts are allowed. */
  interactive(): boolean;
}

export interface IoSources {
  stdout?: Stream;
  stderr?: Stream;
  stdinIsTTY?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function createIo(flags: GlobalFlags, sources: IoSources = {}): Io {
  const stdout = sources.stdout ?? streams.stdout;
  const stderr = sources.stderr ?? streams.stderr;
  const env = sources.env ?? process.env;
  const cwd = sources.cwd ?? process.cwd();
  const stdinIsTTY = sources.stdinIsTTY ?? streams.stdinIsTTY();
  let config: ClientConfig | undefined;
  let client: ApiClient | undefined;
  const io: Io = {
    stdout,
    stderr,
    stdinIsTTY,
    env,
    cwd,
    flags,
    config: () => (config ??= resolveConfig({ baseUrl: flags.baseUrl, apiKey: flags.apiKey, env, cwd })),
    client: () => (client ??= new ApiClient(io.config().baseUrl, requireKey(io.config(), env, cwd))),
    publicClient: () => new ApiClient(io.config().baseUrl, io.config().apiKey),
    async show(data, view, context = {}) {
      // --json and --quiet never load the table and colour code.
      if (flags.json) {
        stdout.write(`${JSON.stringify(data, null, 2)}\n`);
        return;
      }
      if (flags.quiet) {
        const { quietText } = await import('./output/quiet.js');
        stdout.write(quietText(data, view));
        return;
      }
      const options = { quiet: false, wide: Boolean(flags.wide), env, ...context };
      if (view.kind === 'list') (await import('./output/list.js')).renderList(stdout, data, view, options);
      else (await import('./output/render.js')).render(stdout, data, view, options);
    },
    note(text) {
      if (!flags.json && !flags.quiet) stderr.write(`${text}\n`);
    },
    interactive: () => stdinIsTTY && Boolean(stdout.isTTY),
  };
  return io;
}
