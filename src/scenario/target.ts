import { httpTransport, type Transport, type WireRequest, type WireResponse } from '../client/http.js';
import type { SnapshotTarget } from '../sandbox/snapshots.js';

/**
 * The sandbox a scenario's steps go to: by default a fresh one in this process (its requests go
 * through `app.inject()`, no socket), or a running one named by `--base-url` (over HTTP).
 */
export interface Target {
  /** What a command-line step is told (`--base-url`): where its requests go. */
  baseUrl: string;
  apiKey: string;
  /** Every request of every step goes through here; `exchanges` records them. */
  transport: Transport;
  /** The requests made since the last `take()`, with their answers. */
  take(): Exchange[];
  /**
   * One pass of the scheduler for the caller's developer: whatever is due on its clock now
   * (deliveries, settlements). The clock does not move in-process; over HTTP it moves 1 ms.
   */
  runDue(): Promise<void>;
  close(): Promise<void>;
}

export interface Exchange {
  request: WireRequest;
  response?: WireResponse;
  /** Why there was no answer. */
  error?: string;
}

/** A transport that keeps what went through it. */
function recording(transport: Transport): { transport: Transport; take(): Exchange[] } {
  let exchanges: Exchange[] = [];
  return {
    transport: async (request) => {
      const exchange: Exchange = { request };
      exchanges.push(exchange);
      try {
        exchange.response = await transport(request);
        return exchange.response;
      } catch (error) {
        exchange.error = (error as Error).message;
        throw error;
      }
    },
    take: () => {
      const taken = exchanges;
      exchanges = [];
      return taken;
    },
  };
}

export interface InProcessOptions {
  seed: string;
  /** Where the manual clock starts (ms). */
  clockStart: number;
  snapshot?: SnapshotTarget | undefined;
  /** The loopback port to listen on; 0, one the system picks. */
  port: number;
  /** Unexpected server errors (bugs: they never reach a response). */
  log: (line: string) => void;
}

/**
 * A fresh seeded sandbox on `:memory:` in this process, its clock manual. It listens on a loopback
 * port (`port`, by default one the system picks) only so that its built-in receiver can take its own
 * webhook deliveries, as `startSandbox()` does; the steps never use the socket.
 */
export async function inProcessTarget(options: InProcessOptions): Promise<Target> {
  const { startServer } = await import('../sandbox/server.js');
  let lost: string | undefined;
  const server = await startServer({
    dbPath: ':memory:',
    host: '127.0.0.1',
    port: options.port,
    seed: options.seed,
    clockStart: options.clockStart,
    snapshot: options.snapshot,
    singleCaller: true,
    log: options.log,
    onFatal: (reason) => {
      lost = reason;
      options.log(`sandbox stopped: ${reason}`);
    },
  });
  const { app } = server;
  const recorder = recording(async (request) => {
    if (lost) throw new Error(`the scenario's sandbox stopped: ${lost}`);
    const method = request.method as 'GET';
    const response = await app.inject({
      method,
      url: request.path,
      headers: request.headers,
      ...(request.body === undefined ? {} : { payload: request.body }),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  });
  return {
    baseUrl: server.baseUrl,
    // A fresh in-memory sandbox: its owner, and so its key, were made by this start.
    apiKey: server.apiKey!,
    ...recorder,
    runDue: async () => {
      await app.scheduler.runDue(server.developerId);
    },
    close: () => server.close(),
  };
}

/** A sandbox already running at `baseUrl`, used with `apiKey`. */
export function httpTarget(baseUrl: string, apiKey: string): Target {
  const raw = httpTransport(baseUrl);
  const recorder = recording(raw);
  return {
    baseUrl,
    apiKey,
    ...recorder,
    runDue: async () => {
      // No route runs the scheduler without moving the clock: the smallest move the API takes does.
      const response = await raw({
        method: 'POST',
        path: '/sandbox/clock/advance',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 0.001 }),
      });
      if (response.status !== 200)
        throw new Error(
          `the sandbox refused to run its scheduler: HTTP ${response.status} ${response.body.slice(0, 200)}`,
        );
    },
    close: async () => {},
  };
}
