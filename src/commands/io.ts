import { ApiClient, type Transport } from '../client/http.js';
import { type ClientConfig, requireKey, resolveConfig } from '../client/config.js';
import type { Stream } from './output/render.js';
import { fitted } from './output/wrap.js';
import type { View } from './output/views.js';
import * as streams from './streams.js';

/** Said on stderr when an answer is a replay of an earlier request with the same Idempotency-Key. */
const REPLAYED = 'Replayed: this --idempotency-key was used before, so this is the first answer, as it was then; nothing was done again.';

/** Flags every client command takes. */
export interface GlobalFlags {
  json?: boolean;
  quiet?: boolean;
  wide?: boolean;
  /** How a list is printed: `table`, `tsv`, `csv` or `json` (see listFormat). */
  format?: string;
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
  /** A client that sends no key, for what needs none (`GET /sandbox/health`): a key goes only where it is needed. */
  publicClient(): ApiClient;
  /** Prints a result on stdout as --json, --quiet or for people. */
  show(data: unknown, view: View, context?: { now?: Date }): Promise<void>;
  /** A note for people on stderr; silent under --json and --quiet. */
  note(text: string): void;
  /** True when a person is at the keyboard: prompts are allowed. */
  interactive(): boolean;
  /** Names and runs other command lines in this process (see CommandLines). */
  commandLines(): CommandLines;
}

export interface IoSources {
  /** Names and runs other command lines in this process (`scenario run`'s steps); set by the program that runs the command. */
  commandLines?: CommandLines | undefined;
  stdout?: Stream;
  stderr?: Stream;
  stdinIsTTY?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** How requests reach the API (default: `node:http` to the base URL); a scenario step's goes in-process. */
  transport?: Transport;
}

/**
 * A command run inside another command's process (a scenario step) rather than by `main`: where
 * its output goes, how its requests travel, and the exit code it would have had, which the action
 * records here instead of setting `process.exitCode`.
 */
export interface Invocation {
  sources: IoSources;
  exitCode: number;
}

/**
 * Other ledger command lines, as the program names and runs them (program.ts `commandLines`). The
 * program hands them to the command it runs, through the command's Io, so that a command that runs
 * others (`scenario run`) never imports the registry or the program, which load that command.
 */
export interface CommandLines {
  /** The deepest command `words` name and how many words that took; whether it is known, runs (a group does not), and a group's subcommands. */
  name(words: string[]): { path: string; used: number; known: boolean; runs: boolean; children: string[] };
  /**
   * Runs a command line in this process, as `ledger` runs it: its output, environment and requests
   * go where `invocation.sources` says, `added` words follow the command's own flags (before any
   * `--`), and it resolves the exit code the command would have had.
   */
  run(words: string[], added: string[], invocation: Invocation): Promise<number>;
}

export function createIo(given: GlobalFlags, sources: IoSources = {}): Io {
  // `--format json` is `--json`, in everything: the output, the notes left out, the requests saved.
  const flags = given.format === 'json' ? { ...given, json: true } : given;
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
    client: () => {
      if (client) return client;
      // A replayed answer looks like a fresh one: a repeat within the key's 24 h (a re-run CI job) did nothing, and says so.
      client = new ApiClient(io.config().baseUrl, requireKey(io.config(), env, cwd), sources.transport, () => io.note(REPLAYED), io.config().tlsFingerprint);
      prefetchOutput(flags);
      return client;
    },
    publicClient: () => new ApiClient(io.config().baseUrl, undefined, sources.transport, undefined, io.config().tlsFingerprint),
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
      const format = listFormat(flags, stdout);
      if (format === 'tsv' || format === 'csv') {
        const text = (await import('./output/rows.js')).rowsText(data, view, format);
        if (text !== undefined) {
          stdout.write(text);
          return;
        }
      }
      const options = { quiet: false, wide: Boolean(flags.wide), env, ...context };
      if (view.kind === 'list') (await import('./output/list.js')).renderList(stdout, data, view, options);
      else (await import('./output/render.js')).render(stdout, data, view, options);
    },
    note(text) {
      if (!flags.json && !flags.quiet) stderr.write(fitted(stderr, `${text}\n`));
    },
    interactive: () => stdinIsTTY && Boolean(stdout.isTTY),
    commandLines: () => {
      if (!sources.commandLines) throw new Error('this command was not run by the program (program.ts), which alone runs other command lines');
      return sources.commandLines;
    },
  };
  return io;
}

/**
 * How a list is printed: as `--format` or `--json` says; else a table on a terminal and, as `gh`
 * does, tab-separated rows with a header line for a pipe or a file. `--quiet` is its own.
 */
export function listFormat(flags: GlobalFlags, stdout: Stream): 'table' | 'tsv' | 'csv' | 'json' {
  if (flags.json) return 'json';
  if (flags.format === 'table' || flags.format === 'tsv' || flags.format === 'csv' || flags.format === 'json') return flags.format;
  return stdout.isTTY ? 'table' : 'tsv';
}

/**
 * Starts loading the code that `show` will print with, without waiting for it, as a command makes
 * its first request: Node reads and compiles those modules while the request is on the wire (about 5
 * to 10 ms of a `credit`, which used to load them only once its answer was in). A module that fails
 * to load fails again, with its error, where `show` imports it.
 */
function prefetchOutput(flags: GlobalFlags): void {
  if (flags.json) return;
  void (flags.quiet ? import('./output/quiet.js') : import('./output/render.js')).catch(() => {});
}
