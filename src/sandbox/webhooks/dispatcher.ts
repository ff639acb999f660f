import { storageFailure } from '../../engine/db/faults.js';
import {
  abandonLog,
  beginAttempts,
  dueLogs,
  finishAttempt,
  findLog,
  getEndpoint,
  MAX_ATTEMPTS,
  RESPONSE_BODY_LIMIT,
  signingSecrets,
  type WebhookLogRow,
} from '../../engine/events/webhooks.service.js';
import type { Sandbox } from '../sandbox.js';
import { postWebhook } from './http-post.js';
import { signatureHeader } from './signing.js';

export interface DispatcherOptions {
  /** Seconds before an attempt is abandoned (contract §7: 15). */
  timeoutSeconds: number;
  /** Attempts in flight at once for one developer. Each developer has its own. */
  concurrency?: number;
  version: string;
  /** Real time for the webhook-timestamp header: receivers check it against their own clock. */
  realNow?: () => number;
  /** Deliveries stopped because their attempts cannot be recorded (full disk), and started again. */
  onPause?: (paused: boolean, reason: string) => void;
}

export interface Dispatcher {
  /** Where the built-in receiver listens, once the server does. Until then its deliveries wait. */
  setSelfUrl(url: string): void;
  /**
   * Attempts every delivery of `developerId` (of every developer when left out) that is due on
   * that developer's clock, and resolves when those attempts are recorded.
   */
  dispatchDue(developerId?: string): Promise<number>;
  /** Starts, for every developer whose lane is idle, the deliveries now due; returns at once (the timer). */
  tick(): void;
  /** One attempt now, whatever the schedule says (manual retry). */
  attemptNow(log: WebhookLogRow): Promise<WebhookLogRow>;
  /** Stops taking work and waits for attempts in flight, so none is lost or sent twice. */
  stop(): Promise<void>;
}

/** One developer's deliveries: its own slots, so a slow or dead endpoint holds up no one else. */
interface Lane {
  inFlight: Map<string, Promise<WebhookLogRow | undefined>>;
  /** Choosing what to send is serialized per lane, so two callers never pick the same delivery. */
  selecting: Promise<unknown>;
  /** The timer's drain of this lane is still running. */
  ticking: boolean;
}

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

export function createDispatcher(sandbox: Sandbox, options: DispatcherOptions): Dispatcher {
  const { db } = sandbox;
  const concurrency = options.concurrency ?? 8;
  const realNow = options.realNow ?? Date.now;
  const lanes = new Map<string, Lane>();
  let selfUrl: string | undefined;
  let stopped = false;
  /** While the storage refuses writes, nothing is sent (real time; doubling up to 30 s). */
  let pausedUntil = 0;
  let backoff = FIRST_BACKOFF_MS;

  const laneOf = (developerId: string): Lane => {
    let lane = lanes.get(developerId);
    if (!lane) {
      lane = { inFlight: new Map(), selecting: Promise.resolve(), ticking: false };
      lanes.set(developerId, lane);
    }
    return lane;
  };

  const resume = () => {
    if (pausedUntil === 0) return;
    pausedUntil = 0;
    backoff = FIRST_BACKOFF_MS;
    options.onPause?.(false, 'the database takes writes again');
  };
  // Any write that commits shows the storage works again: deliveries resume at once.
  sandbox.onCommit(resume);

  /** Writes through group commit; a storage failure pauses every delivery and is rethrown. */
  async function record<T>(work: Parameters<Sandbox['write']>[0]): Promise<T> {
    try {
      return (await sandbox.write(work)) as T;
    } catch (error) {
      const failure = storageFailure(error);
      if (failure) {
        if (pausedUntil === 0) options.onPause?.(true, failure.message);
        pausedUntil = Date.now() + backoff;
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
      throw error;
    }
  }

  async function endpointFor(developerId: string) {
    const endpoint = await getEndpoint(db, developerId);
    const url = endpoint.url ?? (selfUrl ? `${selfUrl}/sandbox/receiver/${developerId}` : undefined);
    return { endpoint, url };
  }

  /** Sends one begun attempt and records its outcome. Resolves undefined when that record failed. */
  async function send(log: WebhookLogRow, manual: boolean, url: string, secrets: string[]): Promise<WebhookLogRow | undefined> {
    const env = sandbox.envFor(log.developer_id);
    const timestamp = Math.floor(realNow() / 1000);
    const started = performance.now();
    let httpStatus: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    try {
      const response = await postWebhook(
        new URL(url),
        {
          'content-type': 'application/json',
          'user-agent': `ledger-sandbox/${options.version}`,
          'webhook-id': log.event_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, log.event_id, timestamp, log.payload),
        },
        log.payload,
        { timeoutMs: options.timeoutSeconds * 1000, limit: RESPONSE_BODY_LIMIT },
      );
      httpStatus = response.status;
      responseBody = response.body;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const durationMs = performance.now() - started;
    const result = { url, httpStatus, responseBody, error, durationMs, manual };
    if (manual) return record<WebhookLogRow>((trx) => finishAttempt(trx, env, log, result));
    // An outcome that cannot be written leaves the log due at its next retry (see beginAttempts).
    return record<WebhookLogRow>((trx) => finishAttempt(trx, env, log, result)).catch(() => undefined);
  }

  function track(lane: Lane, log: WebhookLogRow, manual: boolean, url: string, secrets: string[]): Promise<WebhookLogRow | undefined> {
    const running = send(log, manual, url, secrets).finally(() => lane.inFlight.delete(log.id));
    lane.inFlight.set(log.id, running);
    return running;
  }

  /** Starts what is due for one developer in its free slots. Serialized per lane. */
  function startDue(developerId: string, lane: Lane, cutoff: Date): Promise<Promise<unknown>[]> {
    const choosing = lane.selecting.then(async () => {
      const slots = concurrency - lane.inFlight.size;
      if (stopped || slots <= 0 || Date.now() < pausedUntil) return [];
      const due = await dueLogs(db, developerId, cutoff, slots, [...lane.inFlight.keys()]);
      if (due.length === 0) return [];
      const { endpoint, url } = await endpointFor(developerId);
      if (!url) return [];
      const env = sandbox.envFor(developerId);
      const spent = due.filter((log) => log.attempt_count >= MAX_ATTEMPTS);
      const fresh = due.filter((log) => log.attempt_count < MAX_ATTEMPTS);
      // Nothing is sent before its attempt is on record: if that write fails, nothing goes out.
      const begun = await record<WebhookLogRow[]>(async (trx) => {
        for (const log of spent) await abandonLog(trx, log);
        return beginAttempts(trx, env, fresh, false);
      }).catch(() => [] as WebhookLogRow[]);
      const secrets = signingSecrets(endpoint, env.clock.now());
      return begun.map((log) => track(lane, log, false, url, secrets));
    });
    lane.selecting = choosing.catch(() => {});
    return choosing;
  }

  /** Batch after batch until nothing of this developer's that was due at the start is left. */
  async function drain(developerId: string): Promise<number> {
    const lane = laneOf(developerId);
    // Work that falls due meanwhile waits for the next call: a steady stream cannot keep it going.
    const cutoff = sandbox.envFor(developerId).clock.now();
    let total = 0;
    for (;;) {
      const started = await startDue(developerId, lane, cutoff);
      if (started.length === 0) {
        // Nothing new to start: wait for attempts another caller started, then look again.
        if (stopped || lane.inFlight.size === 0 || Date.now() < pausedUntil) return total;
        await Promise.allSettled([...lane.inFlight.values()]);
        continue;
      }
      await Promise.allSettled(started);
      total += started.length;
    }
  }

  return {
    setSelfUrl(url) {
      selfUrl = url;
    },
    async dispatchDue(developerId) {
      const developers = developerId ? [developerId] : sandbox.developerIds();
      const counts = await Promise.all(developers.map(drain));
      return counts.reduce((a, b) => a + b, 0);
    },
    tick() {
      if (stopped || Date.now() < pausedUntil) return;
      for (const developerId of sandbox.developerIds()) {
        const lane = laneOf(developerId);
        if (lane.ticking) continue;
        lane.ticking = true;
        drain(developerId)
          .catch(() => 0)
          .finally(() => (lane.ticking = false));
      }
    },
    async attemptNow(log) {
      const lane = laneOf(log.developer_id);
      const running = lane.inFlight.get(log.id);
      if (running) await running.catch(() => {});
      const env = sandbox.envFor(log.developer_id);
      const { endpoint, url } = await endpointFor(log.developer_id);
      const fresh = (await findLog(db, log.id))!;
      const [begun] = await record<WebhookLogRow[]>((trx) => beginAttempts(trx, env, [fresh], true));
      if (!url) {
        const missing = { url: '(built-in receiver, not listening)', httpStatus: null, responseBody: null, durationMs: 0, manual: true };
        return record<WebhookLogRow>((trx) => finishAttempt(trx, env, begun!, { ...missing, error: 'the sandbox is not listening, so its built-in receiver cannot be reached' }));
      }
      return (await track(lane, begun!, true, url, signingSecrets(endpoint, env.clock.now())))!;
    },
    async stop() {
      stopped = true;
      for (const lane of lanes.values()) await lane.selecting;
      await Promise.allSettled([...lanes.values()].flatMap((lane) => [...lane.inFlight.values()]));
    },
  };
}
