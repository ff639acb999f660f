import { acquireLock, type DatabaseLock, lockPathFor } from '../engine/db/lock.js';
import { setEndpointUrl } from '../engine/events/webhooks.service.js';
import { releaseInterrupted } from '../engine/idempotency/idempotency.service.js';
import { buildApp } from './app.js';
import { limitLog } from './log-limit.js';
import { resumeResets } from './reset.js';
import { ensureSandboxDeveloper, openSandbox } from './sandbox.js';
import { createThrowAwayDatabase } from './throw-away.js';

export interface StartServerOptions {
  dbPath: string;
  host: string;
  port: number;
  /** Where the lock that keeps a second server away lives (default: beside a database file; none for :memory:). */
  lockPath?: string | undefined;
  /** The key the last start handed out; kept if it still works, so scripts keep working across restarts. */
  knownKey?: string | undefined;
  /** Seconds of sandbox time before the provider acts on a payout (default 2; 0 = at once). */
  settlementDelaySeconds?: number | undefined;
  /** Where the SANDBOX developer's webhooks go (default: the built-in receiver). */
  webhookUrl?: string | undefined;
  /** Seconds before a webhook attempt is abandoned (default 15). */
  webhookTimeoutSeconds?: number | undefined;
  logRequest?: (line: string) => void;
  /** One line (or stack) per call; the server limits how often it is called. */
  log?: (line: string) => void;
  /**
   * The database file was removed, replaced or truncated under the server: every write from now
   * on would be lost, so the process must end (contract §10). Default: log and exit 1.
   */
  onFatal?: (reason: string) => void;
}

export interface RunningServer {
  baseUrl: string;
  apiKey: string;
  developerId: string;
  keyIssued: boolean;
  close(): Promise<void>;
}

/**
 * Takes the database's lock, opens it, makes sure the SANDBOX developer has a key, and listens.
 * Throws DatabaseInUseError when another process serves the same database.
 * @example const server = await startServer({ dbPath: ':memory:', host: '127.0.0.1', port: 0 });
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const write = options.log ?? ((line: string) => console.error(line));
  const logError = limitLog(write);
  const lockPath = options.lockPath ?? (options.dbPath === ':memory:' ? undefined : lockPathFor(options.dbPath));
  // The database, its WAL and the lock files hold secrets: nothing this process creates is readable by others.
  process.umask(0o077);
  const lock: DatabaseLock | undefined = lockPath ? acquireLock(lockPath, options.dbPath) : undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const onFatal =
    options.onFatal ??
    ((reason: string) => {
      write(`Error [STORAGE_UNAVAILABLE]: ${reason}. The sandbox stopped so that no write is acknowledged and then lost.`);
      process.exit(1);
    });
  // --memory: a throw-away file of its own, removed when the server stops (see throw-away.ts).
  const throwAway = options.dbPath === ':memory:' ? createThrowAwayDatabase() : undefined;
  try {
    const sandbox = await openSandbox({
      dbPath: throwAway?.path ?? options.dbPath,
      throwAway: throwAway !== undefined,
      settlementDelaySeconds: options.settlementDelaySeconds,
      backgroundCheckpoints: true,
      onLost: (reason) => {
        app?.server.close();
        onFatal(reason);
      },
    });
    await releaseInterrupted(sandbox.db);
    const credentials = await ensureSandboxDeveloper(sandbox, options.knownKey);
    if (options.webhookUrl !== undefined) await sandbox.write((trx) => setEndpointUrl(trx, credentials.developerId, options.webhookUrl!));
    app = await buildApp({
      sandbox,
      logRequest: options.logRequest,
      logError,
      webhookTimeoutSeconds: options.webhookTimeoutSeconds,
      onDeliveriesPaused: (paused, reason) => write(paused ? `webhook deliveries paused: ${reason}` : `webhook deliveries resumed: ${reason}`),
    });
    // A reset the last run left half done finishes in the background; its developer waits for it.
    await resumeResets(sandbox, app.quiesce, logError);
    try {
      await app.listen({ host: options.host, port: options.port });
    } catch (error) {
      await app.close();
      await sandbox.close();
      throw error;
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const baseUrl = `http://${host}:${port}`;
    lock?.publish(baseUrl);
    // A wildcard bind is reached through loopback.
    app.setSelfUrl(['0.0.0.0', '::'].includes(options.host) ? `http://127.0.0.1:${port}` : baseUrl);
    // Work that fell due while the sandbox was stopped starts now, beside the first requests rather
    // than before them, so a backlog never delays readiness; then the clocks drive it.
    app.scheduler.runDue().catch(logError);
    app.scheduler.start();
    const running = app;
    return {
      baseUrl,
      apiKey: credentials.apiKey,
      developerId: credentials.developerId,
      keyIssued: credentials.issued,
      async close() {
        // Deliveries in flight (some to this server's own receiver) finish before it stops answering.
        await running.scheduler.stop();
        await running.close();
        await sandbox.close();
        throwAway?.remove();
        lock?.release();
      },
    };
  } catch (error) {
    throwAway?.remove();
    lock?.release();
    throw error;
  }
}
