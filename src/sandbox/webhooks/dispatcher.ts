import type { Transaction } from 'kysely';
import type { Database } from '../../engine/db/database.js';
import { storageFailure } from '../../engine/db/storage-errors.js';
import { stillFresh } from '../../engine/events/fresh-deliveries.js';
import {
  abandonLog,
  assertRetryable,
  attemptStillOut,
  beginAttempts,
  dueLogs,
  type Endpoint,
  finishAttempt,
  findLog,
  getEndpoint,
  MAX_ATTEMPTS,
  recordAttempts,
  RESPONSE_BODY_LIMIT,
  signingSecrets,
  type WebhookLogRow,
} from '../../engine/events/webhooks.service.js';
import { LedgerError, notFound } from '../../engine/errors.js';
import { INTERRUPTED_BY_STOP, recordInterruptedAttempts } from '../../engine/events/interrupted-attempts.js';
import type { Sandbox } from '../sandbox.js';
import { postWebhook } from './http-post.js';
import type { BuiltInReceiver, ReceiverAnswer } from './receiver.js';
import { signatureHeader } from './signing.js';

export interface DispatcherOptions {
  /** Seconds before an attempt is abandoned, 15 by default (decisions: Webhooks). */
  timeoutSeconds: number;
  /**
   * Where other servers share the database: seconds (on the developer's clock) for which a begun
   * attempt holds its delivery, so no server begins another attempt of it meanwhile (see
   * beginAttempts). Longer than the timeout, so a live attempt ends inside it; once it has passed
   * with the attempt unrecorded (its server died), another server records that attempt as
   * interrupted and goes on with the schedule. None: this server alone sends.
   */
  leaseSeconds?: number | undefined;
  /** Attempts in flight at once for one developer. Each developer has its own. */
  concurrency?: number;
  version: string;
  /** Real time for the webhook-timestamp header: receivers check it against their own clock. */
  realNow?: () => number;
  /** The built-in receiver, handed its deliveries inside the process (none: they go over HTTP). */
  receiver?: BuiltInReceiver;
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
  /**
   * One attempt now, whatever the schedule says (manual retry). `recorded` runs in each write that
   * moves the log (the attempt begun, then its outcome), with the log as that write leaves it: the
   * caller keeps its answer there, so a request killed mid-attempt is never sent again by its retry.
   */
  attemptNow(log: WebhookLogRow, recorded?: Recorded): Promise<WebhookLogRow | undefined>;
  /**
   * Cancels the developer's attempts in flight (a reset is about to remove their logs) and resolves
   * once nothing of the developer's is being chosen or sent (nothing new starts while the sandbox
   * holds it). A cancelled attempt's outcome is never recorded.
   */
  cancel(developerId: string): Promise<void>;
  /**
   * Starts nothing new, cancels the attempts in flight (their requests are aborted and their
   * outcomes never recorded), runs `work` (a snapshot restore), then carries on: no attempt's
   * outcome is written into a state it was not sent from, and an endpoint that does not answer
   * holds up no restore.
   */
  quiesce<T>(work: () => Promise<T>): Promise<T>;
  /** Stops taking work and waits for attempts in flight, so none is lost or sent twice. */
  stop(): Promise<void>;
  /** The lease (none where this server alone sends) and the attempts this server has out, each holding its delivery. */
  leases(): { leaseSeconds: number | undefined; leased: number };
}

/** Runs in a write that moved a log, with the log as that write leaves it. */
export type Recorded = (trx: Transaction<Database>, log: WebhookLogRow) => Promise<void>;

/** One developer's deliveries: its own slots, so a slow or dead endpoint holds up no one else. */
interface Lane {
  inFlight: Map<string, Promise<WebhookLogRow | undefined>>;
  /** How to abort each attempt in flight, by log id. */
  aborts: Map<string, AbortController>;
  /**
   * Moves on at each cancel: an attempt records its outcome only while the lane is at the epoch it
   * was sent in, checked inside the write, so one that ends after a restore or reset began writes nothing.
   */
  epoch: number;
  /** Choosing what to send is serialized per lane, so two callers never pick the same delivery. */
  selecting: Promise<unknown>;
  /** The timer's drain of this lane is still running. */
  ticking: boolean;
  /**
   * Deliveries whose write committed and that no handover has taken yet, by seq, in the order
   * written (see fresh-deliveries.ts): handed to the built-in receiver without reading them back.
   */
  fresh: Map<number, WebhookLogRow>;
}

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** Deliveries to the built-in receiver handed over in one write: a bound on how long one write holds the database. */
const HANDOVER_BATCH = 64;
/** Fresh deliveries kept in memory per lane at most; the rest wait for the due-deliveries query. */
const FRESH_LIMIT = 4096;

/** Passes `log` to `recorded` (if any) in `trx`, then on. */
const andRecorded =
  (trx: Transaction<Database>, recorded: Recorded | undefined) =>
  async (log: WebhookLogRow): Promise<WebhookLogRow> => {
    await recorded?.(trx, log);
    return log;
  };

export function createDispatcher(sandbox: Sandbox, options: DispatcherOptions): Dispatcher {
  const { db } = sandbox;
  const concurrency = options.concurrency ?? 8;
  const lease = options.leaseSeconds;
  const realNow = options.realNow ?? Date.now;
  const lanes = new Map<string, Lane>();
  let selfUrl: string | undefined;
  let stopped = false;
  /** Set while quiesce() runs: nothing new starts, and a manual retry waits for it. */
  let holding: Promise<unknown> | undefined;
  /** While the storage refuses writes, nothing is sent (real time; doubling up to 30 s). */
  let pausedUntil = 0;
  let backoff = FIRST_BACKOFF_MS;

  const laneOf = (developerId: string): Lane => {
    let lane = lanes.get(developerId);
    if (!lane) {
      lane = { inFlight: new Map(), aborts: new Map(), epoch: 0, selecting: Promise.resolve(), ticking: false, fresh: new Map() };
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
  // Any write that commits shows the storage works again: deliveries resume at once. Its deliveries
  // are kept for the next handover, which then need not look for them.
  sandbox.onCommit((fresh) => {
    resume();
    for (const log of fresh) {
      const lane = laneOf(log.developer_id);
      if (lane.fresh.size < FRESH_LIMIT) lane.fresh.set(log.seq, log);
    }
  });
  // Whatever was kept belongs to the database as it was.
  sandbox.onRestore(() => lanes.forEach((lane) => lane.fresh.clear()));

  /** Up to a handover's worth of the lane's fresh deliveries that were due by `cutoff`, oldest first, taken out of memory. */
  function takeFresh(lane: Lane, cutoff: string): WebhookLogRow[] {
    const taken: WebhookLogRow[] = [];
    for (const [seq, log] of lane.fresh) {
      if (taken.length === HANDOVER_BATCH || log.next_retry_at! > cutoff) break;
      taken.push(log);
      lane.fresh.delete(seq);
    }
    return taken;
  }

  /** Writes in `developerId`'s lane; a storage failure pauses every delivery and is rethrown. */
  async function record<T>(developerId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      return await sandbox.write(work, developerId);
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

  /** Where a developer's deliveries go now: its own URL, or the built-in receiver (once the server listens). */
  async function endpointFor(developerId: string) {
    const endpoint = await getEndpoint(db, developerId);
    const builtIn = endpoint.url === null;
    const url = endpoint.url ?? (selfUrl ? `${selfUrl}/sandbox/receiver/${developerId}` : undefined);
    return { endpoint, url, inProcess: builtIn && options.receiver !== undefined };
  }

  /** The headers of one attempt of `log`, signed now. */
  function deliveryHeaders(log: WebhookLogRow, secrets: string[]): Record<string, string> {
    const timestamp = Math.floor(realNow() / 1000);
    return {
      'content-type': 'application/json',
      'user-agent': `ledger-sandbox/${options.version}`,
      'webhook-id': log.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, log.event_id, timestamp, log.payload),
    };
  }

  /**
   * Hands deliveries to the built-in receiver and records how each went, in the caller's
   * transaction: each attempt starts, is received and is settled in this one write, so a delivery
   * to the built-in receiver is never lost, sent twice or left unrecorded.
   */
  async function handOver(trx: Transaction<Database>, developerId: string, endpoint: Endpoint, url: string, logs: WebhookLogRow[], manual: boolean): Promise<WebhookLogRow[]> {
    const receiver = options.receiver!;
    const env = sandbox.envFor(developerId);
    const secrets = signingSecrets(endpoint, env.clock.now());
    const host = new URL(url).host;
    const answers: ReceiverAnswer[] = [];
    const attempts = logs.map((log) => {
      const headers = { host, ...deliveryHeaders(log, secrets), 'content-length': String(Buffer.byteLength(log.payload)) };
      let httpStatus: number;
      let responseBody: string;
      try {
        const answer = receiver.answer(developerId, endpoint, headers, log.payload, { eventType: log.event_type });
        answers.push(answer);
        [httpStatus, responseBody] = [answer.status, answer.body];
      } catch (error) {
        if (!(error instanceof LedgerError)) throw error;
        [httpStatus, responseBody] = [401, JSON.stringify({ success: false, detail: { code: error.code, message: error.message } })];
      }
      return { log, result: { url, httpStatus, responseBody, error: null, durationMs: 0, manual } };
    });
    await receiver.keep(trx, developerId, answers);
    return recordAttempts(trx, env, attempts);
  }

  /**
   * The developer's deliveries due by `cutoff`, chosen in its lane's write. Where servers share the
   * database, one of them that counts an attempt without its row had that attempt out on a server
   * that died (its lease has passed, or it would not be due): that attempt is recorded as
   * interrupted first, as a restart records one, so the history and the audit stay whole.
   */
  async function chooseDue(trx: Transaction<Database>, developerId: string, cutoff: Date, limit: number, lane: Lane): Promise<WebhookLogRow[]> {
    const due = await dueLogs(trx, developerId, cutoff, limit, [...lane.inFlight.keys()]);
    if (lease !== undefined) await recordInterruptedAttempts(trx, INTERRUPTED_BY_STOP, (id) => sandbox.envFor(id).clock.now(), { logs: due.map((log) => log.seq) });
    return due;
  }

  /** Sends one begun attempt over HTTP and records its outcome. Resolves undefined when that record failed, or the attempt was cancelled. */
  async function send(lane: Lane, log: WebhookLogRow, manual: boolean, url: string, secrets: string[], recorded?: Recorded): Promise<WebhookLogRow | undefined> {
    const { epoch } = lane;
    const controller = new AbortController();
    lane.aborts.set(log.id, controller);
    const env = sandbox.envFor(log.developer_id);
    // Measured on the developer's clock, like every time the sandbox reports: a manual clock stands
    // still while an attempt runs, so its attempts take 0 ms and two runs report the same.
    const started = env.clock.now().getTime();
    let httpStatus: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    try {
      const response = await postWebhook(new URL(url), deliveryHeaders(log, secrets), log.payload, { timeoutMs: options.timeoutSeconds * 1000, limit: RESPONSE_BODY_LIMIT, signal: controller.signal });
      httpStatus = response.status;
      responseBody = response.body;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    } finally {
      lane.aborts.delete(log.id);
    }
    const durationMs = env.clock.now().getTime() - started;
    const result = { url, httpStatus, responseBody, error, durationMs, manual };
    // The data it was sent from was replaced (a restore, a reset): that data has no trace of it.
    const cancelled = () => lane.epoch !== epoch;
    if (cancelled()) return undefined;
    // Where servers share the database, another may have taken the delivery over (the lease passed): its record stands.
    const gone = async (trx: Transaction<Database>) => cancelled() || (lease !== undefined && !(await attemptStillOut(trx, log)));
    if (manual) return record(log.developer_id, async (trx) => ((await gone(trx)) ? undefined : finishAttempt(trx, env, log, result).then(andRecorded(trx, recorded))));
    // An outcome that cannot be written leaves the log due at its next retry (see beginAttempts).
    return record(log.developer_id, async (trx) => ((await gone(trx)) ? undefined : finishAttempt(trx, env, log, result))).catch(() => undefined);
  }

  function track(lane: Lane, log: WebhookLogRow, manual: boolean, url: string, secrets: string[], recorded?: Recorded): Promise<WebhookLogRow | undefined> {
    const running = send(lane, log, manual, url, secrets, recorded).finally(() => lane.inFlight.delete(log.id));
    lane.inFlight.set(log.id, running);
    return running;
  }

  /** Waits until no lane is choosing and no attempt is in flight (once nothing new may start). */
  async function settleLanes(): Promise<void> {
    for (const lane of lanes.values()) await lane.selecting;
    await Promise.allSettled([...lanes.values()].flatMap((lane) => [...lane.inFlight.values()]));
  }

  /** Once the lane has chosen (nothing new may start), aborts its attempts in flight, unrecorded, and waits for them to end. */
  async function cancelLane(lane: Lane): Promise<void> {
    await lane.selecting;
    lane.epoch += 1;
    for (const controller of lane.aborts.values()) controller.abort();
    await Promise.allSettled([...lane.inFlight.values()]);
  }

  /**
   * Starts what is due for one developer. Serialized per lane. To the built-in receiver: one
   * write that chooses, delivers and records a batch, finished when it resolves. Over HTTP: the
   * free slots are filled, each attempt on record before it is sent; resolves with the attempts.
   */
  function startDue(developerId: string, lane: Lane, cutoff: Date): Promise<Promise<unknown>[]> {
    const choosing = lane.selecting.then(async () => {
      if (stopped || holding || Date.now() < pausedUntil || sandbox.isHeld(developerId)) return [];
      const { endpoint, url, inProcess } = await endpointFor(developerId);
      if (!url) return [];
      const env = sandbox.envFor(developerId);
      if (inProcess) {
        // Chosen inside the write, so it sees every delivery as it is at that moment: first those
        // kept in memory since they committed (each checked still waiting), then by the query.
        const handled = await record(developerId, async (trx) => {
          for (let kept = takeFresh(lane, cutoff.toISOString()); kept.length > 0; kept = takeFresh(lane, cutoff.toISOString())) {
            const live = await stillFresh(trx, kept);
            if (live.length === 0) continue;
            await handOver(trx, developerId, endpoint, url, live, false);
            return live;
          }
          const due = await chooseDue(trx, developerId, cutoff, HANDOVER_BATCH, lane);
          for (const log of due.filter((l) => l.attempt_count >= MAX_ATTEMPTS)) await abandonLog(trx, log);
          await handOver(trx, developerId, endpoint, url, due.filter((l) => l.attempt_count < MAX_ATTEMPTS), false);
          return due;
        }).catch(() => [] as WebhookLogRow[]);
        for (const log of handled) lane.fresh.delete(log.seq);
        return handled.map(() => Promise.resolve());
      }
      // Over HTTP each delivery is chosen by the query, begun and sent: nothing is kept for it.
      lane.fresh.clear();
      const slots = concurrency - lane.inFlight.size;
      if (slots <= 0) return [];
      // Nothing due: no write. Otherwise chosen again inside the write, which runs alone in the developer's lane: a server that shares the
      // database begins an attempt on record before another can choose the same delivery, and
      // beginning it moves its next retry on (the lease), so each attempt goes out once.
      // Nothing is sent before its attempt is on record: if that write fails, nothing goes out.
      if ((await dueLogs(db, developerId, cutoff, 1, [...lane.inFlight.keys()])).length === 0) return [];
      const begun = await record(developerId, async (trx) => {
        const due = await chooseDue(trx, developerId, cutoff, slots, lane);
        for (const log of due.filter((l) => l.attempt_count >= MAX_ATTEMPTS)) await abandonLog(trx, log);
        return beginAttempts(trx, env, due.filter((l) => l.attempt_count < MAX_ATTEMPTS), false, lease);
      }).catch(() => [] as WebhookLogRow[]);
      if (begun.length === 0) return [];
      const secrets = signingSecrets(endpoint, env.clock.now());
      return begun.map((log) => track(lane, log, false, url, secrets));
    });
    lane.selecting = choosing.catch(() => {});
    return choosing;
  }

  /**
   * Batch after batch until nothing of this developer's that was due at the start is left. Over
   * HTTP a slot is filled again as soon as it frees, so a slow attempt holds up only its own slot.
   */
  async function drain(developerId: string): Promise<number> {
    const lane = laneOf(developerId);
    // Work that falls due meanwhile waits for the next call: a steady stream cannot keep it going.
    const cutoff = sandbox.envFor(developerId).clock.now();
    // A restore or reset meanwhile ends it: what its data has due is the next call's (the timer's, a clock advance's).
    const { epoch } = lane;
    let total = 0;
    for (;;) {
      const started = await startDue(developerId, lane, cutoff);
      total += started.length;
      if (lane.epoch !== epoch) return total;
      if (started.length > 0 && lane.inFlight.size < concurrency) continue;
      if (lane.inFlight.size === 0) {
        if (started.length === 0) return total;
        continue;
      }
      // Every slot is taken, or nothing new is due: wait for one attempt to end, then look again.
      if (stopped || holding || Date.now() < pausedUntil) {
        await Promise.allSettled([...lane.inFlight.values()]);
        return total;
      }
      await Promise.race([...lane.inFlight.values()].map((p) => p.catch(() => undefined)));
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
      if (stopped || holding || Date.now() < pausedUntil) return;
      for (const developerId of sandbox.developerIds()) {
        const lane = laneOf(developerId);
        if (lane.ticking) continue;
        lane.ticking = true;
        drain(developerId)
          .catch(() => 0)
          .finally(() => (lane.ticking = false));
      }
    },
    async attemptNow(log, recorded) {
      const lane = laneOf(log.developer_id);
      const { epoch } = lane;
      const env = sandbox.envFor(log.developer_id);
      // Read again in the write: an attempt of the schedule, or a restore, may have changed it since the caller read it.
      const current = async (trx: Transaction<Database>) => {
        const fresh = await findLog(trx, log.id);
        if (!fresh) throw notFound('webhook log');
        assertRetryable(fresh);
        return fresh;
      };
      for (;;) {
        // A restore under way: the retry runs on the data it leaves.
        while (holding) await holding.catch(() => {});
        const running = lane.inFlight.get(log.id);
        if (running) await running.catch(() => {});
        // Begun in the lane's turn, as the schedule begins its attempts, and in flight before the next
        // turn: the schedule never sends the same delivery at the same time (seen: both did, and the
        // log counted one attempt of the two).
        const turn = lane.selecting.then(async (): Promise<{ done: Promise<WebhookLogRow | undefined> } | undefined> => {
          if (holding || lane.inFlight.has(log.id)) return undefined;
          // Its developer is being reset: the log is on its way out with the rest.
          if (lane.epoch !== epoch && sandbox.isHeld(log.developer_id)) throw notFound('webhook log');
          // The endpoint as it is in this turn: it may have moved while the retry waited for it.
          const { endpoint, url, inProcess } = await endpointFor(log.developer_id);
          if (url && inProcess) {
            const delivered = await record(log.developer_id, async (trx) => andRecorded(trx, recorded)((await handOver(trx, log.developer_id, endpoint, url, [await current(trx)], true))[0]!));
            return { done: Promise.resolve(delivered) };
          }
          // On record before it is sent, as every attempt: killed while it is out, it counts, and the
          // answer kept with it is the one a retry of the request gets, without sending it again.
          const begun = await record(log.developer_id, async (trx) => andRecorded(trx, recorded)((await beginAttempts(trx, env, [await current(trx)], true, lease))[0]!));
          if (!url) {
            const missing = { url: '(built-in receiver, not listening)', httpStatus: null, responseBody: null, durationMs: 0, manual: true };
            const finished = await record(log.developer_id, (trx) => finishAttempt(trx, env, begun, { ...missing, error: 'the sandbox is not listening, so its built-in receiver cannot be reached' }).then(andRecorded(trx, recorded)));
            return { done: Promise.resolve(finished) };
          }
          return { done: track(lane, begun, true, url, signingSecrets(endpoint, env.clock.now()), recorded) };
        });
        lane.selecting = turn.catch(() => {});
        const started = await turn;
        if (started) return started.done;
      }
    },
    cancel: (developerId) => cancelLane(laneOf(developerId)),
    async quiesce(work) {
      const running = (async () => {
        await Promise.all([...lanes.values()].map(cancelLane));
        return work();
      })();
      holding = running;
      try {
        return await running;
      } finally {
        holding = undefined;
      }
    },
    async stop() {
      stopped = true;
      await settleLanes();
    },
    leases: () => ({ leaseSeconds: lease, leased: lease === undefined ? 0 : [...lanes.values()].reduce((n, lane) => n + lane.inFlight.size, 0) }),
  };
}
