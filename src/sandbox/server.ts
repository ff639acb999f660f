import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { redactDatabase } from '../api/database-url.js';
import { claimDatabase, type DatabaseClaim } from '../engine/db/open-storage.js';
import type { StorageOptions } from '../engine/db/storage.js';
import { fixSecret, setEndpointUrl } from '../engine/events/webhooks.service.js';
import { releaseInterrupted } from '../engine/idempotency/idempotency.service.js';
import { type AnalyserConfig, configureAnalyser } from './analyser.js';
import { buildApp } from './app.js';
import { limitLog } from './log-limit.js';
import { resumeResets } from './reset.js';
import { ensureSandboxDeveloper, openSandbox, type Sandbox, sandboxOwnerId } from './sandbox.js';
import type { SnapshotTarget } from './snapshots.js';
import { createThrowAwayDatabase } from './throw-away.js';
import type { ServerTls } from './tls-options.js';

export interface OpenServerOptions {
  /** A SQLite file, ':memory:', or a postgres:// URL (which may hold a password: shown only through redactDatabase). */
  dbPath: string;
  /** PostgreSQL's settings (defaults: engine/db/postgres/connect.ts); ignored by SQLite. */
  postgres?: PostgresOptions | undefined;
  /** A file nothing needs after the process ends (`--memory`): never synced to disk. */
  throwAway?: boolean | undefined;
  /**
   * One caller making one request at a time, in this process (`scenario run`): the audit reads on
   * this thread and the writer checkpoints its own WAL, so no worker thread starts (each would cost
   * a thread start, and the audit's loads the engine again, about 0.3 s, for nothing to run beside).
   */
  singleCaller?: boolean | undefined;
  /** Where the lock that keeps a second server away lives (default: beside a database file; none for :memory:). */
  lockPath?: string | undefined;
  /** The key the last start handed out; kept if it still works, so scripts keep working across restarts. */
  knownKey?: string | undefined;
  /** The SANDBOX developer's key, chosen (`--api-key`): never drawn from the seed. */
  apiKey?: string | undefined;
  /** The SANDBOX developer's webhook signing secret, chosen (`--webhook-secret`): never drawn from the seed. */
  webhookSecret?: string | undefined;
  /** Derive ids, account numbers and references from this seed (decisions: Seeds and reproducibility); never a key or a secret. */
  seed?: string | undefined;
  /** A manual clock standing at this instant (ms) plus each developer's offset; otherwise real time. */
  clockStart?: number | undefined;
  /** Start from this snapshot: the database's contents are replaced by it before the first request. */
  snapshot?: SnapshotTarget | undefined;
  /** Load `snapshot` without checking that its books balance (a warning says so). */
  forceSnapshot?: boolean | undefined;
  /** Where named snapshots live (default: a temporary directory, removed at close). */
  snapshotDir?: string | undefined;
  /** Seconds of sandbox time before the provider acts on a payout (default 2; 0 = at once). */
  settlementDelaySeconds?: number | undefined;
  /** Where the SANDBOX developer's webhooks go (default: the built-in receiver). */
  webhookUrl?: string | undefined;
  /** Serve HTTPS with this certificate and key (checked: tls-options.ts). */
  tls?: ServerTls | undefined;
  /** Seconds before a webhook attempt is abandoned (default 15). */
  webhookTimeoutSeconds?: number | undefined;
  /** Where servers share the database: how long a begun attempt holds its delivery (default: the timeout + 15 s; see BuildAppOptions). */
  webhookLeaseSeconds?: number | undefined;
  /** Attempts in flight at once per developer (default: 1 with a manual clock, else 8). */
  deliveryConcurrency?: number | undefined;
  /** Which analyser reads inbound narrations (default: the rules analyser). */
  analyser?: AnalyserConfig | undefined;
  /** The request log: one line per request, several lines to a call once per turn of the event loop (see buildApp). */
  logRequest?: ((line: string) => void) | undefined;
  /** Real time (webhook timestamps, login links' lifetime); default Date.now. */
  realNow?: (() => number) | undefined;
  /** Rows the request log keeps per developer (default 1,000). */
  requestLogKeep?: number | undefined;
  /** One line (or stack) per call; the server limits how often it is called. */
  log?: ((line: string) => void) | undefined;
  /**
   * The database file was removed, replaced or truncated under the server: every write from now
   * on would be lost, so it must stop (decisions: Storage). Default: log and exit 1.
   */
  onFatal?: ((reason: string) => void) | undefined;
}

/** How a server uses a PostgreSQL database: its pool and how long one statement may run. */
export type PostgresOptions = NonNullable<StorageOptions['postgres']>;

/** A sandbox with every route in place, not listening yet (tests call `app.inject`). */
export interface OpenServer {
  app: FastifyInstance;
  sandbox: Sandbox;
  /**
   * The owner's key, or undefined on a shared (PostgreSQL) database whose owner has a key this
   * start was not given (`apiKey`) nor remembered (`knownKey`): no new key is made there, since it
   * would revoke the one every other server's users hold.
   */
  apiKey: string | undefined;
  /** The sandbox's owner, the SANDBOX developer. */
  developerId: string;
  keyIssued: boolean;
  /** A random id made once when this server opened: /sandbox/health names it, so servers sharing a database tell apart. */
  serverId: string;
  /** Where the data lives, as it may be shown: a file path, ':memory:', or a postgres:// URL without its password. */
  database: string;
  /** Where unexpected errors go, at most 20 a minute. */
  logError: (error: unknown) => void;
  /** Records where the server listens, beside the database's lock, for `stop` and `status` to find. */
  publish(baseUrl: string): void;
  close(): Promise<void>;
}

export interface StartServerOptions extends OpenServerOptions {
  host: string;
  port: number;
}

export interface RunningServer extends OpenServer {
  /** Where this machine reaches it: a wildcard bind (0.0.0.0, ::) is named by loopback. */
  baseUrl: string;
  /** With TLS, the SHA-256 fingerprint of the certificate served (`AB:CD:…`). */
  tlsFingerprint: string | undefined;
}

/**
 * Takes the database's lock, opens it, makes sure the SANDBOX developer has a key, builds the app
 * and, with `snapshot`, restores it. Nothing listens yet, and no work runs by itself.
 * Throws DatabaseInUseError when another process serves the same database.
 * @example const { app } = await openServer({ dbPath: ':memory:', seed: '7', clockStart: Date.parse('2026-01-01') });
 */
export async function openServer(options: OpenServerOptions): Promise<OpenServer> {
  const write = options.log ?? ((line: string) => console.error(line));
  const logError = limitLog(write);
  const database = options.throwAway ? ':memory:' : redactDatabase(options.dbPath);
  const serverId = randomUUID();
  const lock: DatabaseClaim | undefined = claimDatabase(redactDatabase(options.dbPath), options.lockPath);
  let app: FastifyInstance | undefined;
  const onFatal =
    options.onFatal ??
    ((reason: string) => {
      write(
        `Error [STORAGE_UNAVAILABLE]: ${reason}. The sandbox stopped so that no write is acknowledged and then lost.`,
      );
      process.exit(1);
    });
  let sandbox: Sandbox | undefined;
  try {
    const analysis = configureAnalyser(options.analyser);
    sandbox = await openSandbox({
      dbPath: options.dbPath,
      throwAway: options.throwAway ?? false,
      postgres: options.postgres,
      seed: options.seed,
      clockStart: options.clockStart,
      settlementDelaySeconds: options.settlementDelaySeconds,
      analyser: analysis.analyser,
      backgroundCheckpoints: !options.singleCaller,
      readsOffThread: !options.singleCaller,
      onLost: (reason) => {
        app?.server.close();
        onFatal(reason);
      },
    });
    await releaseInterrupted(sandbox.db);
    analysis.attach(sandbox);
    // Servers that share a database share its owner's key: a start that does not know it joins without one.
    const credentials = await ensureSandboxDeveloper(sandbox, options.knownKey, options.apiKey, {
      reissue: sandbox.storage.backend === 'sqlite',
    });
    app = await buildApp({
      sandbox,
      logRequest: options.logRequest,
      requestLogKeep: options.requestLogKeep,
      logError,
      webhookTimeoutSeconds: options.webhookTimeoutSeconds,
      webhookLeaseSeconds: options.webhookLeaseSeconds,
      deliveryConcurrency: options.deliveryConcurrency,
      snapshotDir: options.snapshotDir,
      logWarning: write,
      tls: options.tls,
      realNow: options.realNow,
      identity: { serverId, database },
      onDeliveriesPaused: (paused, reason) =>
        write(paused ? `webhook deliveries paused: ${reason}` : `webhook deliveries resumed: ${reason}`),
    });
    if (options.snapshot) await app.snapshots.restore(options.snapshot, { force: options.forceSnapshot });
    // The owner of a snapshot from another sandbox has its own id; the key followed it (see carryKeys).
    const developerId = (await sandboxOwnerId(sandbox)) ?? credentials.developerId;
    if (options.webhookUrl !== undefined)
      await sandbox.write((trx) => setEndpointUrl(trx, developerId, options.webhookUrl!), developerId);
    if (options.webhookSecret !== undefined)
      await sandbox.write((trx) => fixSecret(trx, developerId, options.webhookSecret!), developerId);
    // A reset the last run left half done finishes in the background; its developer waits for it.
    await resumeResets(sandbox, app.quiesce, logError);
    const opened = { app, sandbox };
    return {
      ...opened,
      apiKey: credentials.apiKey,
      developerId,
      keyIssued: credentials.issued,
      serverId,
      database,
      logError,
      publish: (baseUrl) => lock?.publish(baseUrl),
      async close() {
        // Deliveries in flight (some to this server's own receiver) finish before it stops answering.
        await opened.app.scheduler.stop();
        await opened.app.close();
        await opened.sandbox.close();
        lock?.release();
      },
    };
  } catch (error) {
    await app?.close();
    await sandbox?.close();
    lock?.release();
    throw error;
  }
}

/**
 * `openServer`, then listens. With a real-time clock, the scheduler then runs by itself; with a
 * manual clock nothing becomes due until a developer advances its clock
 * (decisions: Seeds and reproducibility). A `:memory:` database (`sandbox start --memory`) is a
 * throw-away file of its own, removed when the server stops (see throw-away.ts).
 * @example const server = await startServer({ dbPath: ':memory:', host: '127.0.0.1', port: 0 });
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const throwAway = options.dbPath === ':memory:' ? createThrowAwayDatabase() : undefined;
  let opened: OpenServer;
  try {
    opened = await openServer(
      throwAway
        ? {
            ...options,
            dbPath: throwAway.path,
            throwAway: true,
            lockPath: options.lockPath ?? `${throwAway.path}-lock`,
          }
        : options,
    );
  } catch (error) {
    throwAway?.remove();
    throw error;
  }
  if (throwAway) {
    const close = opened.close;
    opened = {
      ...opened,
      async close() {
        await close();
        throwAway.remove();
      },
    };
  }
  const { app, sandbox } = opened;
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await opened.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  // A wildcard bind is reached through loopback: the URL this machine's clients (and the state file,
  // which counts only when it names loopback) use.
  const host = ['0.0.0.0', '::'].includes(options.host)
    ? '127.0.0.1'
    : options.host.includes(':')
      ? `[${options.host}]`
      : options.host;
  const baseUrl = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  opened.publish(baseUrl);
  app.setSelfUrl(baseUrl);
  if (sandbox.clockMode === 'real') {
    // Work that fell due while the sandbox was stopped starts now, beside the first requests rather
    // than before them, so a backlog never delays readiness; then the clocks drive it.
    app.scheduler.runDue().catch(opened.logError);
    app.scheduler.start();
  }
  return { ...opened, baseUrl, tlsFingerprint: options.tls?.fingerprint };
}
