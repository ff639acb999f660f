/**
 * The in-process API for Node test suites (`import { startSandbox } from '@wallet-ledger/cli'`):
 * a whole sandbox in the test's own process, on its own database, listening on a loopback port.
 * It loads the server only: no command-line code (commander, prompts).
 */
import { resolve } from 'node:path';
import type { AuditReport, ClockState } from './api/schemas/sandbox.js';
import type { Snapshot } from './api/schemas/snapshots.js';
import type { SnapshotFormat } from './api/snapshot-name.js';
import { databaseRefusal, isPostgresUrl } from './api/database-url.js';
import { parseDuration } from './api/duration.js';
import { HTTP_STATUS } from './api/errors.js';
import { DatabaseInUseError } from './engine/db/open-storage.js';
import { LedgerError } from './engine/errors.js';
import { getEndpoint } from './engine/events/webhooks.service.js';
import { authenticate } from './engine/developers/keys.js';
import { manualClockStart, parseApiKey, parseSeed, parseWebhookSecret, webhookLease } from './sandbox/start-options.js';
import { startServer } from './sandbox/server.js';
import { checkTls, publicBindProblem } from './sandbox/tls-options.js';
import type { SnapshotTarget } from './sandbox/snapshots.js';

export type { AuditReport, ClockState, Snapshot, SnapshotFormat };

export interface StartSandboxOptions {
  /** Derive every id, account number, NIP session id and webhook id from this seed (keys and secrets stay random); implies `clock: 'manual'`. */
  seed?: number | string;
  /** `manual`: every clock stands still until `advance()`, and nothing falls due by itself. Default: `manual` with a seed, else `real`. */
  clock?: 'real' | 'manual';
  /** Where a manual clock starts (ISO 8601): default 2026-01-01T00:00:00Z. */
  clockStart?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /**
   * The address to bind, default 127.0.0.1. Anything but loopback (`0.0.0.0` for every interface)
   * is refused (`TLS_REQUIRED`) unless `tls` is given, or `insecure` for a test server on a trusted network.
   */
  host?: string;
  /**
   * Serve HTTPS: the certificate and its unencrypted private key as PEM text (the files' contents,
   * not their paths), as Node's `https.createServer` takes them. Checked before anything is opened:
   * a key that is not the certificate's is refused (`VALIDATION_ERROR`). `baseUrl` is then `https://`.
   * @example startSandbox({ tls: { cert: readFileSync('cert.pem'), key: readFileSync('key.pem') } })
   */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Listen beyond loopback over plain HTTP, where keys and money travel in clear text: test servers on a trusted network only. */
  insecure?: boolean;
  /** A SQLite file, or ':memory:' (the default). */
  db?: string;
  /**
   * Where the data lives: a `postgres://` or `postgresql://` URL runs on PostgreSQL, which several
   * sandboxes (in this process or others) may share; a file path or ':memory:' is SQLite, as `db`.
   * Not with `db`. Joining a PostgreSQL database that already has its owner needs that owner's key
   * as `apiKey` (refused `VALIDATION_ERROR` without it: a new key would revoke the one in use). A
   * database that cannot be reached or refuses the connection is `STORAGE_UNAVAILABLE`, its URL
   * shown with the password as `***`.
   * @example startSandbox({ database: process.env.LEDGER_DATABASE_URL, apiKey: process.env.LEDGER_SANDBOX_API_KEY })
   */
  database?: string;
  /** Fix the sandbox's key (`svc_test_` + 32 base62 characters); default: a random one. */
  apiKey?: string;
  /** Fix the sandbox's webhook signing secret (`whsec_` + base64 of 24 to 64 bytes); default: a random one. */
  webhookSecret?: string;
  /** Start from this snapshot: a name in `snapshotDir`, or `{ file }`. Refused (`SNAPSHOT_INVALID`) when its books do not balance. */
  snapshot?: string | { file: string };
  /** Load `snapshot` without the audit of its books (`log` gets a warning). */
  force?: boolean;
  /** Where named snapshots live; default: a temporary directory removed by `stop()`. */
  snapshotDir?: string;
  /** Seconds of sandbox time before the provider settles or fails a payout (default 2; 0 = before answering). */
  settlementDelaySeconds?: number;
  /** Where the sandbox's webhooks go (default: its built-in receiver). */
  webhookUrl?: string;
  /** Seconds before a webhook attempt is abandoned (default 15). */
  webhookTimeoutSeconds?: number;
  /**
   * With a PostgreSQL `database`, which other servers may share: seconds (of the developer's clock)
   * for which a begun webhook attempt holds its delivery, so no other server sends it meanwhile.
   * Longer than `webhookTimeoutSeconds`, at most 3600; default: the timeout + 15. With SQLite,
   * where one server sends everything, it is refused (`VALIDATION_ERROR`).
   */
  webhookLeaseSeconds?: number;
  /** Where unexpected server errors are reported (default: console.error). */
  log?: (line: string) => void;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>` (`https://` with `tls`; loopback for a `0.0.0.0` bind too): point your client (or `LEDGER_BASE_URL`) here. */
  readonly baseUrl: string;
  /** The sandbox owner's `svc_test_` key. */
  readonly apiKey: string;
  /** The owner's `whsec_` signing secret (read again after every restore). */
  readonly webhookSecret: string;
  /** The owner's developer id. */
  readonly developerId: string;
  /** Moves the owner's clock forward (`90`, `'90s'`, `'5m'`, `'2h'`, `'1d'`) and runs what fell due. */
  advance(duration: number | string): Promise<ClockState>;
  snapshot: {
    /**
     * Saves the whole sandbox under a name (or to `{ file }`, a path relative to the working
     * directory): an SQLite file, or with `format: 'json'` a deterministic text snapshot (JSON Lines)
     * to commit and review. A restore tells the two apart by themselves.
     */
    save(target: string | { file: string }, options?: { format?: SnapshotFormat }): Promise<Snapshot>;
    /**
     * Puts the whole sandbox back as it was saved; the keys in use keep working. A snapshot whose
     * books do not balance is refused (`SNAPSHOT_INVALID`) unless `force`.
     */
    restore(target: string | { file: string }, options?: { force?: boolean }): Promise<Snapshot>;
    list(): Promise<Snapshot[]>;
    delete(name: string): Promise<void>;
  };
  /** Checks every ledger invariant of the owner's books (`ok: false` lists the problems). */
  audit(): Promise<AuditReport>;
  /** Stops the server and closes its database; no handle is left open. */
  stop(): Promise<void>;
}

/** An error answer of the sandbox: `code` is the API's (`VALIDATION_ERROR`, `FORBIDDEN`, …). */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'SandboxError';
  }
}

/**
 * The refusal a failure stands for, as the HTTP API would answer it: a bad option or argument is
 * 400 VALIDATION_ERROR, the sandbox's own refusals keep their code. Anything else is a bug, thrown as it is.
 */
function refusal(error: unknown): unknown {
  if (error instanceof SandboxError) return error;
  if (error instanceof RangeError) return new SandboxError(400, 'VALIDATION_ERROR', error.message);
  if (error instanceof LedgerError) return new SandboxError(HTTP_STATUS[error.code], error.code, error.message);
  if (error instanceof DatabaseInUseError) return new SandboxError(409, 'DATABASE_IN_USE', error.message);
  return error;
}

/** `work`, with its failures as `refusal` gives them. */
async function refusing<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw refusal(error);
  }
}

const target = (given: string | { file: string }): SnapshotTarget =>
  typeof given === 'string' ? { name: given } : { file: resolve(given.file) };

/**
 * Starts a sandbox in this process. Several can run at once, each on its own database.
 * @example
 * const sandbox = await startSandbox({ seed: 7 });
 * const res = await fetch(`${sandbox.baseUrl}/v1/banks`, { headers: { 'x-api-key': sandbox.apiKey } });
 * await sandbox.stop();
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const log = options.log ?? ((line: string) => console.error(line));
  let failed: string | undefined;
  const server = await refusing(async () => {
    const seed = options.seed === undefined ? undefined : parseSeed(options.seed);
    const host = options.host ?? '127.0.0.1';
    const tls = options.tls === undefined ? undefined : checkTls(options.tls, { cert: 'tls.cert', key: 'tls.key' });
    // The client's rule for what is loopback, loaded only for a host given: the entry loads no client code of its own.
    const loopback = options.host === undefined || (await import('./client/loopback.js')).isLoopback(host);
    const exposed = publicBindProblem(
      { host, loopback, tls: tls !== undefined, insecure: Boolean(options.insecure) },
      { tls: '`tls: { cert, key }`', insecure: '`insecure: true`' },
    );
    if (exposed) throw new SandboxError(400, 'TLS_REQUIRED', exposed);
    if (options.db !== undefined && options.database !== undefined)
      throw new SandboxError(400, 'VALIDATION_ERROR', 'database: give `database` or `db`, not both');
    const dbPath = options.database ?? options.db ?? ':memory:';
    if (options.webhookLeaseSeconds !== undefined && !isPostgresUrl(dbPath)) {
      throw new SandboxError(
        400,
        'VALIDATION_ERROR',
        'webhookLeaseSeconds: a lease is for servers that share a PostgreSQL database; this sandbox runs on SQLite, where one server sends every webhook',
      );
    }
    const leaseSeconds =
      options.webhookLeaseSeconds === undefined
        ? undefined
        : webhookLease(options.webhookLeaseSeconds, options.webhookTimeoutSeconds ?? 15, 'webhookLeaseSeconds');
    const started = await startServer({
      dbPath,
      host,
      tls,
      port: options.port ?? 0,
      seed,
      clockStart: manualClockStart({ seed, clock: options.clock, clockStart: options.clockStart }),
      apiKey: options.apiKey === undefined ? undefined : parseApiKey(options.apiKey),
      webhookSecret: options.webhookSecret === undefined ? undefined : parseWebhookSecret(options.webhookSecret),
      snapshot: options.snapshot === undefined ? undefined : target(options.snapshot),
      forceSnapshot: options.force,
      snapshotDir: options.snapshotDir,
      settlementDelaySeconds: options.settlementDelaySeconds,
      webhookUrl: options.webhookUrl,
      webhookTimeoutSeconds: options.webhookTimeoutSeconds,
      webhookLeaseSeconds: leaseSeconds,
      log,
      // The host process is the test suite: a lost database file fails this sandbox, never exits the process.
      onFatal: (reason) => {
        failed = reason;
        log(`sandbox stopped: ${reason}`);
      },
    }).catch((error: unknown) => {
      const refused = databaseRefusal(error, dbPath);
      throw refused ? new SandboxError(503, 'STORAGE_UNAVAILABLE', refused) : error;
    });
    if (started.apiKey === undefined) {
      await started.close();
      throw new SandboxError(
        400,
        'VALIDATION_ERROR',
        "apiKey: this database already has its owner: give the owner's key as `apiKey` to join it (a new key would revoke the one in use)",
      );
    }
    return { ...started, apiKey: started.apiKey };
  });
  const { app, sandbox } = server;
  const inject = async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    if (failed) throw new SandboxError(503, 'STORAGE_UNAVAILABLE', failed);
    const response = await app.inject({
      method,
      url,
      headers: { 'x-api-key': server.apiKey },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    if (response.statusCode < 300) return response;
    const parsed = response.json() as { detail?: { code: string; message: string } };
    throw new SandboxError(
      response.statusCode,
      parsed.detail?.code ?? 'INTERNAL_ERROR',
      parsed.detail?.message ?? response.body,
    );
  };
  const call = async <T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<T> =>
    (await inject(method, url, body)).json<{ data: T }>().data;
  // A file is the download of the whole sandbox, written here: the server writes only named snapshots.
  const saveToFile = async (file: string, format: SnapshotFormat): Promise<Snapshot> => {
    // Client code, loaded only here: the package entry loads none of the command line's.
    const [{ servingPid }, { saveFile }] = await Promise.all([
      import('./client/served-database.js'),
      import('./client/save-file.js'),
    ]);
    const pid = servingPid(file);
    if (pid !== undefined)
      throw new SandboxError(
        400,
        'VALIDATION_ERROR',
        `file: ${file} is the database of a running sandbox (pid ${pid}): a snapshot is a file of its own`,
      );
    const response = await inject('GET', `/sandbox/database?format=${format}`);
    const savedAt = response.headers['snapshot-saved-at'];
    const size = await saveFile(file, response.rawPayload).catch((error: NodeJS.ErrnoException) => {
      // As `snapshot save --file` reports it: a full disk is what the sandbox calls it, any other refusal is the path's.
      if (error.code === 'ENOSPC')
        throw new SandboxError(
          507,
          'STORAGE_FULL',
          `file: ${file}: the disk is full: nothing was written; free some space and retry`,
        );
      if (typeof error.code === 'string' && /^E[A-Z]+$/.test(error.code))
        throw new SandboxError(
          400,
          'VALIDATION_ERROR',
          `file: ${file} cannot be written (${error.code}${error.code === 'ENOENT' ? ': no such directory' : ''})`,
        );
      throw error;
    });
    return {
      name: null,
      file,
      format,
      size_bytes: size,
      saved_at: typeof savedAt === 'string' && format === 'sqlite' ? savedAt : null,
    };
  };
  // The owner is whoever the key belongs to: a restore of another sandbox's snapshot carries the key
  // over to that snapshot's owner, whose id and secret are then this sandbox's.
  let developerId = server.developerId;
  const secret = async () => {
    developerId = await authenticate(sandbox.db, server.apiKey);
    return (await getEndpoint(sandbox.db, developerId)).secret;
  };
  let webhookSecret = await secret();
  sandbox.onRestore(async () => {
    webhookSecret = await secret();
  });
  const restore = (given: string | { file: string }, { force }: { force?: boolean } = {}) => {
    const at = target(given);
    const flag = force === undefined ? {} : { force };
    return 'name' in at
      ? call<Snapshot>(
          'POST',
          `/sandbox/snapshots/${encodeURIComponent(at.name)}/restore`,
          force === undefined ? undefined : flag,
        )
      : call<Snapshot>('POST', '/sandbox/snapshots/restore', { ...at, ...flag });
  };
  return {
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    get webhookSecret() {
      return webhookSecret;
    },
    get developerId() {
      return developerId;
    },
    // A number goes to the route as it is, which refuses it as it refuses any request's.
    advance: async (duration) =>
      call<ClockState>('POST', '/sandbox/clock/advance', {
        seconds: typeof duration === 'number' ? duration : await refusing(() => parseDuration(duration)),
      }),
    snapshot: {
      save: async (given, { format = 'sqlite' } = {}) => {
        const at = target(given);
        return 'name' in at
          ? call<Snapshot>('POST', '/sandbox/snapshots', { ...at, format })
          : saveToFile(at.file, format);
      },
      restore,
      list: async () => (await call<{ items: Snapshot[] }>('GET', '/sandbox/snapshots?limit=100')).items,
      delete: async (name) => {
        await call('DELETE', `/sandbox/snapshots/${encodeURIComponent(name)}`);
      },
    },
    audit: () => call<AuditReport>('GET', '/sandbox/audit'),
    stop: () => server.close(),
  };
}
