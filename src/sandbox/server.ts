import { setEndpointUrl } from '../engine/events/webhooks.service.js';
import { releaseInterrupted } from '../engine/idempotency/idempotency.service.js';
import { type AnalyserConfig, installAnalyser } from './analyser.js';
import { buildApp } from './app.js';
import { ensureSandboxDeveloper, openSandbox } from './sandbox.js';

export interface StartServerOptions {
  dbPath: string;
  host: string;
  port: number;
  /** The key the last start handed out; kept if it still works, so scripts keep working across restarts. */
  knownKey?: string | undefined;
  /** Seconds of sandbox time before the provider acts on a payout (default 2; 0 = at once). */
  settlementDelaySeconds?: number | undefined;
  /** Where the SANDBOX developer's webhooks go (default: the built-in receiver). */
  webhookUrl?: string | undefined;
  /** Seconds before a webhook attempt is abandoned (default 15). */
  webhookTimeoutSeconds?: number | undefined;
  /** Which analyser reads inbound narrations (default: the rules analyser). */
  analyser?: AnalyserConfig | undefined;
  logRequest?: (line: string) => void;
  logError?: (error: unknown) => void;
}

export interface RunningServer {
  baseUrl: string;
  apiKey: string;
  developerId: string;
  keyIssued: boolean;
  close(): Promise<void>;
}

/**
 * Opens the database, makes sure the SANDBOX developer has a key, and listens.
 * @example const server = await startServer({ dbPath: ':memory:', host: '127.0.0.1', port: 0 });
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const sandbox = await openSandbox({ dbPath: options.dbPath, settlementDelaySeconds: options.settlementDelaySeconds, backgroundCheckpoints: true });
  await releaseInterrupted(sandbox.db);
  installAnalyser(sandbox, options.analyser);
  const credentials = await ensureSandboxDeveloper(sandbox, options.knownKey);
  if (options.webhookUrl !== undefined) await setEndpointUrl(sandbox.db, credentials.developerId, options.webhookUrl);
  const app = await buildApp({ sandbox, logRequest: options.logRequest, logError: options.logError, webhookTimeoutSeconds: options.webhookTimeoutSeconds });
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
  // A wildcard bind is reached through loopback.
  app.setSelfUrl(['0.0.0.0', '::'].includes(options.host) ? `http://127.0.0.1:${port}` : baseUrl);
  // Work that fell due while the sandbox was stopped starts now, beside the first requests rather
  // than before them, so a backlog never delays readiness; then the clock drives it.
  app.scheduler.runDue().catch(options.logError ?? ((error) => console.error(error)));
  app.scheduler.start();
  return {
    baseUrl,
    apiKey: credentials.apiKey,
    developerId: credentials.developerId,
    keyIssued: credentials.issued,
    async close() {
      // Deliveries in flight (some to this server's own receiver) finish before it stops answering.
      await app.scheduler.stop();
      await app.close();
      await sandbox.close();
    },
  };
}
