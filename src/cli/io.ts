import type { Capabilities } from '../client/capabilities.js';
import { ApiClient, httpTransport, type RequestOptions, type Transport } from '../client/http.js';
import { withinSeed } from '../client/seed-api.js';
import { type ClientConfig, needsProfiles, requireKey, resolveConfig } from '../client/config.js';
import type { ProfilesFile } from '../client/profiles.js';
import { isWrite, requireLiveFlag, sandboxOnlyRefusal, targetLine } from '../client/live.js';
import { colourFor } from '../text/format.js';
import type { Stream } from './output/render.js';
import { fitted } from '../text/wrap.js';
import type { View } from './output/views.js';
import * as streams from './streams.js';
import type { CommandLines, GlobalFlags, Invocation, Io, IoSources } from './io-types.js';

export type { CommandLines, GlobalFlags, Invocation, Io, IoSources };
import { UsageError } from '../client/errors.js';

/** Said on stderr when an answer is a replay of an earlier request with the same Idempotency-Key. */
const REPLAYED =
  'Replayed: this --idempotency-key was used before, so this is the first answer, as it was then; nothing was done again.';

/** What this folder's own sandbox offers: everything. */
const EVERYTHING: Capabilities = {
  source: 'own',
  sandbox: true,
  has: () => true,
  takes: () => true,
  takesMany: () => true,
};

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
  let profiles: ProfilesFile | undefined;
  let confirmed: Promise<void> | undefined;
  let announced = false;
  let capabilities: Promise<Capabilities> | undefined;
  /** The command of the sandbox alone that runs (sandboxOnly), checked against the server's routes at its first request. */
  let sandboxCommand: string | undefined;
  const sourcesOfConfig = {
    baseUrl: flags.baseUrl,
    apiKey: flags.apiKey,
    profile: flags.profile,
    insecure: flags.insecure,
    env,
    cwd,
  };
  /** Every write on a live service passes here first: confirmed by the command, by --yes, or here, generically. */
  const guard = async (method: string, path: string, query?: RequestOptions['query']): Promise<void> => {
    if (sandboxCommand && !(await io.capabilities()).sandbox) {
      throw sandboxOnlyRefusal(
        sandboxCommand,
        io.config(),
        "has none of the sandbox's routes (its /openapi.json lists no /sandbox path)",
      );
    }
    if (!withinSeed(method, path, query)) {
      const offered = await io.capabilities();
      if (offered.source !== 'own')
        await (await import('./unsupported.js')).refuseUnoffered(io, offered, method, path, query);
    }
    if (!io.config().live || !isWrite(method, path)) return;
    const target = io.config().profile ?? io.config().baseUrl;
    await io.confirmLive(
      `This sends ${method} ${path.split('?')[0]} to the live service ${target}.`,
      io.config().profile ?? 'live',
      io.config().profile ? 'the profile name' : undefined,
    );
  };
  const io: Io = {
    stdout,
    stderr,
    stdinIsTTY,
    env,
    cwd,
    flags,
    config: () => (config ??= resolveConfig({ ...sourcesOfConfig, profiles })),
    async prepare() {
      if (profiles || !needsProfiles(sourcesOfConfig)) return;
      profiles = await (await import('../client/profiles.js')).loadProfiles(env);
    },
    client: () => {
      if (client) return client;
      requireLiveFlag(io.config(), flags.live);
      // A replayed answer looks like a fresh one: a repeat within the key's 24 h (a re-run CI job) did nothing, and says so.
      client = new ApiClient(io.config().baseUrl, requireKey(io.config(), env, cwd), {
        transport: sources.transport,
        onReplay: () => io.note(REPLAYED),
        guard,
        tlsFingerprint: io.config().tlsFingerprint,
        from: io.config().from,
      });
      prefetchOutput(flags);
      return client;
    },
    publicClient: () => {
      requireLiveFlag(io.config(), flags.live);
      return new ApiClient(io.config().baseUrl, undefined, {
        transport: sources.transport,
        tlsFingerprint: io.config().tlsFingerprint,
        from: io.config().from,
      });
    },
    confirmLive(summary, expected, named) {
      if (!io.config().live) return Promise.resolve();
      // Writes sent together (retry --all-failed) share one question.
      confirmed ??= (async () => {
        requireLiveFlag(io.config(), flags.live);
        if (flags.yes) return;
        if (!io.interactive()) {
          throw new UsageError(
            `${summary} On a live service that needs a typed confirmation at a terminal, or --live --yes in a script; nothing was sent`,
            'LIVE_CONFIRMATION_REQUIRED',
          );
        }
        await (await import('./prompts.js')).confirmTyped(io, summary, expected, named);
      })();
      return confirmed;
    },
    asksLive: () => io.config().live && io.interactive() && !flags.yes,
    async sandboxOnly(command) {
      const current = io.config();
      if (current.live) throw sandboxOnlyRefusal(command, current, 'is a live service');
      // Whether the server has the sandbox's routes is asked at the first request (guard), so that
      // a command's own checks of its flags come first, as they do everywhere.
      sandboxCommand = command;
    },
    capabilities() {
      const current = io.config();
      // This folder's sandbox (its state file's URL, or the default one), or a sandbox in this process (a scenario step): everything, nothing asked.
      if (
        current.source === 'state' ||
        current.source === 'default' ||
        current.keySource === 'state' ||
        sources.transport
      )
        return Promise.resolve(EVERYTHING);
      requireLiveFlag(current, flags.live);
      // Its own transport, so that nothing answering there names the setting that chose the URL, as a request would.
      const transport = httpTransport(current.baseUrl, undefined, current.from);
      capabilities ??= import('../client/capabilities.js').then(({ readCapabilities }) =>
        readCapabilities(current.baseUrl, `${current.profile ?? ''} ${current.baseUrl}`, env, transport),
      );
      return capabilities;
    },
    announceTarget() {
      const line = announced ? undefined : targetLine(io.config());
      announced = true;
      if (!line) return;
      const paint = colourFor(stderr, env);
      stderr.write(`${line.live ? paint.red(line.text) : paint.bold(line.text)}\n`);
    },
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
      const { target, ...rest } = context;
      const line = target === false ? undefined : targetLine(io.config());
      if (line) stdout.write(`${line.live ? colourFor(stdout, env).red(line.text) : line.text}\n`);
      const options = { quiet: false, wide: Boolean(flags.wide), env, ...rest };
      if (view.kind === 'list') (await import('./output/list.js')).renderList(stdout, data, view, options);
      else (await import('./output/render.js')).render(stdout, data, view, options);
    },
    note(text) {
      if (!flags.json && !flags.quiet) stderr.write(fitted(stderr, `${text}\n`));
    },
    interactive: () => stdinIsTTY && Boolean(stdout.isTTY),
    commandLines: () => {
      if (!sources.commandLines)
        throw new Error('this command was not run by the program (program.ts), which alone runs other command lines');
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
  if (flags.format === 'table' || flags.format === 'tsv' || flags.format === 'csv' || flags.format === 'json')
    return flags.format;
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
