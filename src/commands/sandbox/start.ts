import { Command, Option } from '../../cli/command.js';
import { dirname, join } from 'node:path';
import { UsageError } from '../../client/errors.js';
import {
  DETACHED_ENV,
  makeStateDir,
  MEMORY_LOCK,
  readState,
  type SandboxState,
  SNAPSHOT_DIR,
  STATE_FILE,
  stateDirFor,
  writeState,
} from '../../client/state.js';
import { ApiError } from '../../client/errors.js';
import { singleQuoted } from '../../client/shell-quote.js';
import type { AnalyserConfig } from '../../sandbox/analyser.js';
import type { Io } from '../../cli/io.js';
import { action, examples } from '../../cli/options.js';
import {
  addAnalyserOptions,
  type AnalyserFlags,
  analyserArgs,
  analyserConfig,
  describeAnalyser,
} from './analyser-options.js';
import { type Reproducible, reproducible } from './start-repro.js';
import { fitted, wrap } from '../../text/wrap.js';
import {
  type Binding,
  binding,
  insecureWarning,
  type PublicFlags,
  shared,
  sharing,
  sharingText,
} from './start-public.js';
import { postgresRefusal, type StorageChoice, storageChoice, type StorageFlags } from './start-storage.js';

export interface StartOptions extends AnalyserFlags, PublicFlags, StorageFlags {
  port: string;
  detach?: boolean;
  json?: boolean;
  settlementDelay: string;
  webhookUrl?: string;
  webhookTimeout: string;
  seed?: string;
  clock?: string;
  clockStart?: string;
  apiKey?: string;
  webhookSecret?: string;
  snapshot?: string;
  force?: boolean;
}

export function startCommand(): Command {
  return addAnalyserOptions(new Command('start'))
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option(
      '--host <host>',
      'address to bind (default 127.0.0.1; with --public 0.0.0.0); beyond loopback it needs --tls-cert and --tls-key, or --insecure',
    )
    .option(
      '--public',
      'share it with your team: listen on every interface and print the `ledger profiles add` line teammates run',
    )
    .option('--tls-cert <pem>', 'serve HTTPS with this certificate (PEM file; with --tls-key)')
    .option('--tls-key <pem>', 'the private key of --tls-cert (unencrypted PEM file)')
    .option(
      '--insecure',
      'beyond loopback without TLS: keys and money in clear text, for a test server on a trusted network only',
    )
    .option('--db <path>', 'SQLite file (default: .ledger/sandbox.db)')
    .addOption(new Option('--memory', 'throw-away in-memory database').conflicts('db'))
    .addOption(
      new Option(
        '--database <url>',
        'a postgres:// URL: run on PostgreSQL, which several servers may share (a file path or :memory: is SQLite, as --db or --memory)',
      )
        .env('LEDGER_DATABASE_URL')
        .conflicts(['db', 'memory']),
    )
    .addOption(
      new Option('--pool-size <n>', 'PostgreSQL: connections this server keeps open at most (default 10)').env(
        'LEDGER_PG_POOL_SIZE',
      ),
    )
    .addOption(
      new Option(
        '--statement-timeout <seconds>',
        'PostgreSQL: a statement running longer is cancelled (default 30)',
      ).env('LEDGER_PG_STATEMENT_TIMEOUT'),
    )
    .addOption(
      new Option(
        '--webhook-lease <seconds>',
        'PostgreSQL: how long a begun webhook attempt holds its delivery from the other servers; ' +
          'longer than --webhook-timeout, at most 3600 (default: the timeout + 15)',
      ).env('LEDGER_PG_WEBHOOK_LEASE'),
    )
    .option(
      '--settlement-delay <seconds>',
      'sandbox seconds before the provider settles or fails a payout (0: before answering)',
      '2',
    )
    .option('--webhook-url <url>', "deliver the SANDBOX developer's webhooks here (default: the built-in receiver)")
    .option('--webhook-timeout <seconds>', 'seconds before a webhook attempt is abandoned', '15')
    .addOption(
      new Option(
        '--seed <n>',
        'derive every id, account number and reference from this number (keys and secrets stay random); implies --clock manual',
      ).env('LEDGER_SEED'),
    )
    .addOption(
      new Option(
        '--clock <mode>',
        "real: real time plus each developer's offset; manual: clocks stand still until `clock advance`",
      ).choices(['real', 'manual']),
    )
    .option(
      '--clock-start <instant>',
      'where a manual clock starts, ISO 8601 (default with --seed: 2026-01-01T00:00:00Z)',
    )
    .addOption(
      new Option(
        '--api-key <key>',
        "fix the SANDBOX developer's key (svc_test_ + 32 letters and digits) instead of a random one",
      ).env('LEDGER_SANDBOX_API_KEY'),
    )
    .addOption(
      new Option(
        '--webhook-secret <secret>',
        "fix the SANDBOX developer's webhook signing secret (whsec_ + base64 of 24 to 64 bytes) instead of a random one",
      ).env('LEDGER_SANDBOX_WEBHOOK_SECRET'),
    )
    .option(
      '--snapshot <name>',
      'start from a snapshot: a name saved with `snapshot save`, or a path to a snapshot file (refused, SNAPSHOT_INVALID, when its books do not balance)',
    )
    .option('--force', 'with --snapshot: load it without the audit of its books (a warning says so)')
    .option('-d, --detach', 'run in the background, wait until healthy, and return')
    .option('--json', 'with --detach: print the connection details as JSON')
    .addHelpText(
      'after',
      examples(
        'ledger sandbox start',
        'ledger sandbox start --detach --port 4011 --memory',
        'ledger sandbox start --detach --memory --seed 7                  # same ids, numbers and times in every run',
        'ledger sandbox start --detach --memory --seed 7 --snapshot test/fixtures/base.db',
        'ledger sandbox start --detach --database postgres://ledger@127.0.0.1:5432/ledger   # on PostgreSQL, which other servers may share',
        "LEDGER_DATABASE_URL='postgres://ledger:…@db:5432/ledger' ledger sandbox start --detach   # a password: in the environment, not in ps",
        'ledger sandbox start --detach --database postgres://ledger@db:5432/ledger --webhook-timeout 5 ' +
          "--webhook-lease 20   # a killed server's webhooks go out again from the others after 20 s",
        'ledger sandbox start --public --tls-cert cert.pem --tls-key key.pem   # a team sandbox over HTTPS',
        'ledger sandbox start --analyser openai-compatible --analyser-url http://127.0.0.1:11434/v1 --analyser-model llama3.2',
        'eval "$(ledger sandbox env)"',
      ) +
        '\nWith --seed or --clock manual nothing falls due by itself: deliveries and settlements run at `ledger sandbox clock advance`.\n',
    )
    .action(action(runStart));
}

function paths(io: Io, options: StartOptions, webhookTimeout: number) {
  const stateDir = stateDirFor(io.cwd, io.env);
  return {
    stateFile: join(stateDir, STATE_FILE),
    logFile: join(stateDir, 'sandbox.log'),
    storage: storageChoice(io, options, stateDir, webhookTimeout),
  };
}

/**
 * The banner's key line when this start has no key to show: a database several servers share
 * already had its owner, whose key this start was not given, and a new one would revoke it.
 */
const NO_KEY_ISSUED =
  'none issued: this database already has its owner, and a new key would revoke the one in use. ' +
  'Its key is the one the first start on it printed (`ledger sandbox env` where that start ran); ' +
  'give it with --api-key (or LEDGER_SANDBOX_API_KEY) at every start, and every server shares it.';

async function healthy(baseUrl: string, tlsFingerprint: string | undefined): Promise<boolean> {
  try {
    // node:http, one connection closed after the answer: `fetch` loaded undici (about 70 ms) and kept
    // its pooled socket open, so the parent of `--detach` lingered about 0.25 s after the answer.
    const { httpTransport } = await import('../../client/http.js');
    const response = await httpTransport(
      baseUrl,
      tlsFingerprint,
    )({ method: 'GET', path: '/sandbox/health', headers: { connection: 'close' } });
    return response.status >= 200 && response.status < 300;
  } catch {
    return false;
  }
}

async function assertNotRunning(stateFile: string): Promise<void> {
  const state = readState(stateFile);
  if (state?.pid && (await healthy(state.base_url, state.tls_fingerprint))) {
    const { isAlive } = await import('../../engine/processes.js');
    if (isAlive(state.pid)) {
      throw new ApiError(
        409,
        'ALREADY_RUNNING',
        `a sandbox is already running at ${state.base_url} (pid ${state.pid}): \`ledger sandbox stop\` first`,
      );
    }
  }
}

export async function runStart(io: Io, options: StartOptions): Promise<void> {
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535) throw new UsageError('--port must be a number from 0 to 65535');
  const settlementDelay = Number(options.settlementDelay);
  if (!/^\d+(\.\d+)?$/.test(options.settlementDelay))
    throw new UsageError('--settlement-delay must be a number of seconds, 0 or more');
  const webhookTimeout = Number(options.webhookTimeout);
  if (!(webhookTimeout > 0) || webhookTimeout > 600)
    throw new UsageError('--webhook-timeout must be a number of seconds, above 0 and at most 600');
  if (options.webhookUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(options.webhookUrl))
    throw new UsageError('--webhook-url must be an http or https URL');
  const analyser = analyserConfig(options, io.env);
  const repro = reproducible(io, options);
  const bind = await binding(io, options);
  const { stateFile, logFile, storage } = paths(io, options, webhookTimeout);
  await assertNotRunning(stateFile);
  if (storage.memory) (await import('../../client/temp-dir.js')).assertTempDirUsable(io.env);
  if (options.insecure && !bind.loopback) io.stderr.write(fitted(io.stderr, insecureWarning(bind.host)));
  if (options.detach)
    return detach(
      io,
      options,
      bind,
      stateFile,
      logFile,
      storage,
      [...analyserArgs(analyser), ...repro.args],
      repro.env,
    );
  // A database with no file to lock beside (memory, PostgreSQL): the state directory's lock is how `stop` finds this server.
  const lockPath = storage.memory || storage.postgres ? join(dirname(stateFile), MEMORY_LOCK) : undefined;
  return foreground(io, options, bind, { stateFile, storage, lockPath }, port, settlementDelay, analyser, repro);
}

async function detach(
  io: Io,
  options: StartOptions,
  bind: Binding,
  stateFile: string,
  logFile: string,
  storage: StorageChoice,
  extraArgs: string[],
  extraEnv: Record<string, string>,
): Promise<void> {
  const { spawnDetached } = await import('../../sandbox/process.js');
  makeStateDir(dirname(stateFile));
  const args = [
    'sandbox',
    'start',
    '--port',
    options.port,
    '--host',
    bind.host,
    '--settlement-delay',
    options.settlementDelay,
    // The files' paths, never their contents: the key would show in `ps`.
    ...(bind.certPath && bind.keyPath ? ['--tls-cert', bind.certPath, '--tls-key', bind.keyPath] : []),
    ...(options.insecure ? ['--insecure'] : []),
    '--webhook-timeout',
    options.webhookTimeout,
    ...(options.webhookUrl ? ['--webhook-url', options.webhookUrl] : []),
    ...storage.args,
    ...extraArgs,
  ];
  let state: SandboxState | undefined;
  try {
    await spawnDetached({
      args,
      logFile,
      cwd: io.cwd,
      // A chosen key or secret, or a database URL, goes through the environment, not the command line, where `ps` would show it.
      env: { ...io.env, [DETACHED_ENV]: '1', ...storage.env, ...extraEnv },
      ready: async (pid) => {
        state = readState(stateFile);
        return state?.pid === pid && (await healthy(state.base_url, state.tls_fingerprint));
      },
    });
  } catch (error) {
    const message = (error as Error).message;
    // The sandbox's own refusal (DATABASE_IN_USE, PORT_IN_USE) is the one to report.
    const own = /Error \[([A-Z_]+)\]: (.*)/.exec(message);
    if (own && own[1] !== 'INTERNAL') throw new ApiError(409, own[1]!, own[2]!);
    throw new ApiError(500, 'START_FAILED', message);
  }
  const share = sharing(bind, state!.base_url);
  const details = {
    base_url: state!.base_url,
    api_key: state!.api_key ?? null,
    pid: state!.pid,
    db: state!.db,
    log_file: logFile,
    ...(share ? shared(share) : {}),
  };
  if (share) io.stderr.write(sharingText(io.stderr, share));
  if (options.json) {
    io.stdout.write(`${JSON.stringify(details, null, 2)}\n`);
    return;
  }
  // The export on a line of its own, to be copied whole; the prose broken to fit the terminal.
  const { widthOf } = await import('../../text/wrap.js');
  const lines = [
    `Sandbox running in the background at ${details.base_url} (pid ${details.pid})`,
    `API key   ${details.api_key ?? NO_KEY_ISSUED}`,
    `Database  ${storage.banner}`,
    `Log       ${logFile}`,
    'Commands in this directory, or below it, use it automatically; elsewhere, first:',
    `  export LEDGER_HOME=${singleQuoted(dirname(stateFile))}`,
    'Stop it with `ledger sandbox stop`.',
  ];
  const width = widthOf(io.stdout, io.env);
  io.stdout.write(
    `${lines.flatMap((line) => (line.startsWith('  export ') ? [line] : wrap(line, width, 10))).join('\n')}\n`,
  );
}

/**
 * A database that cannot be served because the file system refuses a write beside it (its lock,
 * its WAL) is what the sandbox calls it (decisions: Storage), not an internal error with the raw errno.
 */
function storageRefusal(error: NodeJS.ErrnoException, dbPath: string): ApiError | undefined {
  const where = error.path ?? dbPath;
  if (error.code === 'ENOSPC' || error.code === 'SQLITE_FULL')
    return new ApiError(
      507,
      'STORAGE_FULL',
      `${where}: the disk is full: the sandbox cannot serve ${dbPath}; free some space and start it again`,
    );
  const why =
    error.code === 'EROFS'
      ? 'the file system is read-only'
      : error.code === 'EACCES' || error.code === 'EPERM'
        ? 'not allowed to write there'
        : /^SQLITE_(CANTOPEN|READONLY|PERM)/.test(error.code ?? '')
          ? `it cannot be opened for writing (${error.message})`
          : undefined;
  if (why)
    return new ApiError(
      503,
      'STORAGE_UNAVAILABLE',
      `${where}: ${why}: the sandbox cannot serve ${dbPath}, which it must write; use --db on a writable disk, or --memory`,
    );
  return undefined;
}

/** How much the V8 heap may grow past what survived a full collection before the next one (see `foreground`). */
const HEAP_GROWING = '--heap-growing-percent=50';

async function foreground(
  io: Io,
  options: StartOptions,
  bind: Binding,
  where: { stateFile: string; storage: StorageChoice; lockPath: string | undefined },
  port: number,
  settlementDelaySeconds: number,
  analyser: AnalyserConfig,
  repro: Reproducible,
): Promise<void> {
  const { stateFile, storage } = where;
  // The database, its WAL, the lock files and the snapshots hold secrets: nothing this process
  // creates is readable by others. Here, not in the server: an in-process sandbox (startSandbox)
  // must not change its host process's umask.
  process.umask(0o077);
  // V8 lets the old generation grow by up to 4× what survived the last full collection before it
  // collects again; under a steady request load that left about 90 MB of garbage-laden heap beside
  // 20-35 MB live. 1.5× keeps a file sandbox under 200 MB with the same transfers/s
  // (docs/benchmarks.md, Memory). Here for the same reason as the umask: a process-wide setting.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString(HEAP_GROWING);
  makeStateDir(dirname(stateFile));
  const previous = readState(stateFile);
  // A log reader that goes away (a closed pipe) must not take the sandbox down with it.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  // The server from the bundle that `scenario run` loads, with its code cache (scenario/cli.ts).
  const { startServer, DatabaseInUseError, LedgerError, HTTP_STATUS } = await import('../../scenario/cli.js');
  const server = await startServer({
    dbPath: storage.location,
    postgres: storage.postgres,
    lockPath: where.lockPath,
    host: bind.host,
    tls: bind.tls,
    port,
    knownKey: previous?.db === storage.shown ? previous.api_key : undefined,
    settlementDelaySeconds,
    webhookUrl: options.webhookUrl,
    webhookTimeoutSeconds: Number(options.webhookTimeout),
    webhookLeaseSeconds: storage.webhookLeaseSeconds,
    analyser,
    ...repro.server,
    snapshotDir: join(dirname(stateFile), SNAPSHOT_DIR),
    logRequest: (line) => io.stdout.write(`${line}\n`),
    log: (line) => io.stderr.write(`${line}\n`),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE')
      throw new ApiError(
        409,
        'PORT_IN_USE',
        `port ${port} on ${bind.host} is in use: pick another with --port (--port 0 takes a free one)`,
      );
    if (error instanceof DatabaseInUseError) throw new ApiError(409, 'DATABASE_IN_USE', error.message);
    const refused = postgresRefusal(error, storage);
    if (refused) throw refused;
    if (error instanceof LedgerError) throw new ApiError(HTTP_STATUS[error.code], error.code, error.message);
    throw storageRefusal(error, storage.shown) ?? error;
  });
  const state: SandboxState = {
    base_url: server.baseUrl,
    ...(server.apiKey ? { api_key: server.apiKey } : {}),
    db: storage.shown,
    pid: process.pid,
    started_at: new Date().toISOString(),
    ...(server.tlsFingerprint ? { tls_fingerprint: server.tlsFingerprint } : {}),
  };
  try {
    writeState(stateFile, state);
  } catch (error) {
    // A sandbox no command can find (nor `sandbox stop` stop) must not go on serving, holding its database.
    await server.close();
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
      throw new ApiError(
        507,
        'STORAGE_FULL',
        `${stateFile}: the disk is full: the sandbox could not record where it runs, so it stopped; free some space and start it again`,
      );
    }
    throw error;
  }
  // A detached sandbox's output goes to its log file, which must never hold the key: the parent
  // that started it prints the key on the terminal instead (decisions: Keys and secrets).
  const detached = io.env[DETACHED_ENV] === '1';
  io.stdout.write(
    [
      ['0.0.0.0', '::'].includes(bind.host)
        ? `ledger sandbox listening on every interface (${bind.host}), port ${new URL(server.baseUrl).port}: ${server.baseUrl} from this machine`
        : `ledger sandbox listening on ${server.baseUrl}`,
      'API key   ' +
        (!server.apiKey
          ? NO_KEY_ISSUED
          : detached
            ? `${server.apiKey.slice(0, 13)}… (in ${stateFile}; \`ledger sandbox env\` prints it)`
            : `${server.apiKey}${server.keyIssued ? '  (new)' : ''}`),
      `Database  ${storage.banner}`,
      `Server    ${server.serverId}`,
      `State     ${stateFile}`,
      `Analyser  ${describeAnalyser(analyser)}`,
      ...repro.banner,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  const share = sharing(bind, server.baseUrl);
  if (share) io.stderr.write(sharingText(io.stderr, share));
  await new Promise<void>((resolveStop) => {
    const stop = async () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await server.close();
      const current = readState(stateFile);
      if (current?.pid === process.pid) writeState(stateFile, { ...current, pid: undefined });
      io.stdout.write('sandbox stopped\n');
      resolveStop();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
