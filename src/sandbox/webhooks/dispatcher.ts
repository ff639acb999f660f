import type { Transaction } from 'kysely';
import type { Database } from '../../engine/db/database.js';
import {
  abandonLog,
  assertRetryable,
  beginAttempts,
  dueLogs,
  type Endpoint,
  finishAttempt,
  findLog,
  MAX_ATTEMPTS,
  signingSecrets,
  stillFresh,
  type WebhookLogRow,
} from '../../engine/events/webhooks.service.js';
import type { EngineEnv } from '../../engine/env.js';
import { notFound } from '../../engine/errors.js';
import { INTERRUPTED_BY_STOP, recordInterruptedAttempts } from '../../engine/events/interrupted-attempts.js';
import type { Sandbox } from '../sandbox.js';
import { andRecorded, Attempts, type Recorded } from './attempts.js';
import { cancelLane, HANDOVER_BATCH, type Lane, Lanes, takeFresh } from './lanes.js';
import { Pause } from './pause.js';
import type { BuiltInReceiver } from './receiver.js';

export type { Recorded } from './attempts.js';

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

/**
 * Delivers every developer's webhooks: from the deliveries its writes hand over (Sandbox.onDeliveries)
 * and the due-deliveries query, on the timer, at a clock advance and on a manual retry. The parts:
 * `Lanes` (one per developer: its slots, its epoch, what it keeps in memory), `Pause` (nothing is
 * sent while the storage refuses writes) and `Attempts` (one attempt, to the built-in receiver or
 * over HTTP, and its record).
 * @example const dispatcher = createDispatcher(sandbox, { timeoutSeconds: 15, version }); dispatcher.tick();
 */
export function createDispatcher(sandbox: Sandbox, options: DispatcherOptions): Dispatcher {
  return new WebhookDispatcher(sandbox, options);
}

class WebhookDispatcher implements Dispatcher {
  private readonly concurrency: number;
  private readonly lease: number | undefined;
  private readonly lanes = new Lanes();
  private readonly pause: Pause;
  private readonly attempts: Attempts;
  private stopped = false;
  /** Set while quiesce() runs: nothing new starts, and a manual retry waits for it. */
  private holding: Promise<unknown> | undefined;

  constructor(
    private readonly sandbox: Sandbox,
    options: DispatcherOptions,
  ) {
    this.concurrency = options.concurrency ?? 8;
    this.lease = options.leaseSeconds;
    this.pause = new Pause(options.onPause);
    this.attempts = new Attempts(sandbox, options, (developerId, work) => this.record(developerId, work));
    // Any write that commits shows the storage works again: deliveries resume at once.
    sandbox.onCommit(() => this.pause.resume());
    // The deliveries a write made are kept for the next handover, which then need not look for them.
    sandbox.onDeliveries((deliveries) => this.lanes.keep(deliveries));
    // Whatever was kept belongs to the database as it was.
    sandbox.onRestore(() => this.lanes.forgetKept());
  }

  setSelfUrl(url: string): void {
    this.attempts.setSelfUrl(url);
  }

  async dispatchDue(developerId?: string): Promise<number> {
    const developers = developerId ? [developerId] : this.sandbox.developerIds();
    const counts = await Promise.all(developers.map((id) => this.drain(id)));
    return counts.reduce((a, b) => a + b, 0);
  }

  tick(): void {
    if (this.idle()) return;
    for (const developerId of this.sandbox.developerIds()) {
      const lane = this.lanes.of(developerId);
      if (lane.ticking) continue;
      lane.ticking = true;
      this.drain(developerId)
        .catch(() => 0)
        .finally(() => (lane.ticking = false));
    }
  }

  async attemptNow(log: WebhookLogRow, recorded?: Recorded): Promise<WebhookLogRow | undefined> {
    const lane = this.lanes.of(log.developer_id);
    const { epoch } = lane;
    const env = this.sandbox.envFor(log.developer_id);
    for (;;) {
      // A restore under way: the retry runs on the data it leaves.
      while (this.holding) await this.holding.catch(() => {});
      const running = lane.inFlight.get(log.id);
      if (running) await running.catch(() => {});
      // Begun in the lane's turn, as the schedule begins its attempts, and in flight before the next
      // turn: the schedule never sends the same delivery at the same time (seen: both did, and the
      // log counted one attempt of the two).
      const turn = lane.selecting.then(() => this.attemptInTurn(lane, epoch, env, log, recorded));
      lane.selecting = turn.catch(() => {});
      const started = await turn;
      if (started) return started.done;
    }
  }

  cancel(developerId: string): Promise<void> {
    return cancelLane(this.lanes.of(developerId));
  }

  async quiesce<T>(work: () => Promise<T>): Promise<T> {
    const running = (async () => {
      await Promise.all(this.lanes.all().map(cancelLane));
      return work();
    })();
    this.holding = running;
    try {
      return await running;
    } finally {
      this.holding = undefined;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.lanes.settle();
  }

  leases() {
    return { leaseSeconds: this.lease, leased: this.lease === undefined ? 0 : this.lanes.inFlight() };
  }

  /** Nothing new starts: stopped, quiescing for a restore, or paused while the storage refuses writes. */
  private idle(): boolean {
    return this.stopped || this.holding !== undefined || this.pause.paused;
  }

  /** A write in the developer's lane, paused with every delivery while the storage refuses writes. */
  private record<T>(developerId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.pause.guard(() => this.sandbox.write(work, developerId));
  }

  /**
   * Batch after batch until nothing of this developer's that was due at the start is left. Over
   * HTTP a slot is filled again as soon as it frees, so a slow attempt holds up only its own slot.
   */
  private async drain(developerId: string): Promise<number> {
    const lane = this.lanes.of(developerId);
    // Work that falls due meanwhile waits for the next call: a steady stream cannot keep it going.
    const cutoff = this.sandbox.envFor(developerId).clock.now();
    // A restore or reset meanwhile ends it: what its data has due is the next call's (the timer's, a clock advance's).
    const { epoch } = lane;
    let total = 0;
    for (;;) {
      const started = await this.startDue(developerId, lane, cutoff);
      total += started.length;
      if (lane.epoch !== epoch) return total;
      if (started.length > 0 && lane.inFlight.size < this.concurrency) continue;
      if (lane.inFlight.size === 0) {
        if (started.length === 0) return total;
        continue;
      }
      // Every slot is taken, or nothing new is due: wait for one attempt to end, then look again.
      if (this.idle()) {
        await Promise.allSettled([...lane.inFlight.values()]);
        return total;
      }
      await Promise.race([...lane.inFlight.values()].map((p) => p.catch(() => undefined)));
    }
  }

  /**
   * Starts what is due for one developer. Serialized per lane. To the built-in receiver: one
   * write that chooses, delivers and records a batch, finished when it resolves. Over HTTP: the
   * free slots are filled, each attempt on record before it is sent; resolves with the attempts.
   */
  private startDue(developerId: string, lane: Lane, cutoff: Date): Promise<Promise<unknown>[]> {
    const choosing = lane.selecting.then(async () => {
      if (this.idle() || this.sandbox.isHeld(developerId)) return [];
      const { endpoint, url, inProcess } = await this.attempts.endpointFor(developerId);
      if (!url) return [];
      if (inProcess) return this.handOverDue(developerId, lane, cutoff, endpoint, url);
      return this.beginDue(developerId, lane, cutoff, endpoint, url);
    });
    lane.selecting = choosing.catch(() => {});
    return choosing;
  }

  /** A batch to the built-in receiver, chosen, delivered and recorded in one write. */
  private async handOverDue(
    developerId: string,
    lane: Lane,
    cutoff: Date,
    endpoint: Endpoint,
    url: string,
  ): Promise<Promise<unknown>[]> {
    // Chosen inside the write, so it sees every delivery as it is at that moment: first those
    // kept in memory since they committed (each checked still waiting), then by the query.
    const handled = await this.record(developerId, async (trx) => {
      for (
        let kept = takeFresh(lane, cutoff.toISOString());
        kept.length > 0;
        kept = takeFresh(lane, cutoff.toISOString())
      ) {
        const live = await stillFresh(trx, kept);
        if (live.length === 0) continue;
        await this.attempts.handOver(trx, developerId, endpoint, url, live, false);
        return live;
      }
      const due = await this.chooseDue(trx, developerId, cutoff, HANDOVER_BATCH, lane);
      for (const log of due.filter((l) => l.attempt_count >= MAX_ATTEMPTS)) await abandonLog(trx, log);
      await this.attempts.handOver(
        trx,
        developerId,
        endpoint,
        url,
        due.filter((l) => l.attempt_count < MAX_ATTEMPTS),
        false,
      );
      return due;
    }).catch(() => [] as WebhookLogRow[]);
    for (const log of handled) lane.fresh.delete(log.seq);
    return handled.map(() => Promise.resolve());
  }

  /** Over HTTP: the lane's free slots filled, each attempt on record before it is sent. */
  private async beginDue(
    developerId: string,
    lane: Lane,
    cutoff: Date,
    endpoint: Endpoint,
    url: string,
  ): Promise<Promise<unknown>[]> {
    // Over HTTP each delivery is chosen by the query, begun and sent: nothing is kept for it.
    lane.fresh.clear();
    const slots = this.concurrency - lane.inFlight.size;
    if (slots <= 0) return [];
    const env = this.sandbox.envFor(developerId);
    // Nothing due: no write. Otherwise chosen again inside the write, which runs alone in the developer's lane: a server that shares the
    // database begins an attempt on record before another can choose the same delivery, and
    // beginning it moves its next retry on (the lease), so each attempt goes out once.
    // Nothing is sent before its attempt is on record: if that write fails, nothing goes out.
    if ((await dueLogs(this.sandbox.db, developerId, cutoff, 1, [...lane.inFlight.keys()])).length === 0) return [];
    const begun = await this.record(developerId, async (trx) => {
      const due = await this.chooseDue(trx, developerId, cutoff, slots, lane);
      for (const log of due.filter((l) => l.attempt_count >= MAX_ATTEMPTS)) await abandonLog(trx, log);
      return beginAttempts(
        trx,
        env,
        due.filter((l) => l.attempt_count < MAX_ATTEMPTS),
        false,
        this.lease,
      );
    }).catch(() => [] as WebhookLogRow[]);
    if (begun.length === 0) return [];
    const secrets = signingSecrets(endpoint, env.clock.now());
    return begun.map((log) => this.attempts.track(lane, log, false, url, secrets));
  }

  /**
   * The developer's deliveries due by `cutoff`, chosen in its lane's write. Where servers share the
   * database, one of them that counts an attempt without its row had that attempt out on a server
   * that died (its lease has passed, or it would not be due): that attempt is recorded as
   * interrupted first, as a restart records one, so the history and the audit stay whole.
   */
  private async chooseDue(
    trx: Transaction<Database>,
    developerId: string,
    cutoff: Date,
    limit: number,
    lane: Lane,
  ): Promise<WebhookLogRow[]> {
    const due = await dueLogs(trx, developerId, cutoff, limit, [...lane.inFlight.keys()]);
    if (this.lease !== undefined)
      await recordInterruptedAttempts(trx, INTERRUPTED_BY_STOP, (id) => this.sandbox.envFor(id).clock.now(), {
        logs: due.map((log) => log.seq),
      });
    return due;
  }

  /** One manual attempt in the lane's turn; undefined when it must wait for another turn. */
  private async attemptInTurn(
    lane: Lane,
    epoch: number,
    env: EngineEnv,
    log: WebhookLogRow,
    recorded: Recorded | undefined,
  ): Promise<{ done: Promise<WebhookLogRow | undefined> } | undefined> {
    if (this.holding || lane.inFlight.has(log.id)) return undefined;
    const developerId = log.developer_id;
    // Its developer is being reset: the log is on its way out with the rest.
    if (lane.epoch !== epoch && this.sandbox.isHeld(developerId)) throw notFound('webhook log');
    // Read again in the write: an attempt of the schedule, or a restore, may have changed it since the caller read it.
    const current = async (trx: Transaction<Database>) => {
      const fresh = await findLog(trx, log.id);
      if (!fresh) throw notFound('webhook log');
      assertRetryable(fresh);
      return fresh;
    };
    // The endpoint as it is in this turn: it may have moved while the retry waited for it.
    const { endpoint, url, inProcess } = await this.attempts.endpointFor(developerId);
    if (url && inProcess) {
      const delivered = await this.record(developerId, async (trx) =>
        andRecorded(
          trx,
          recorded,
        )((await this.attempts.handOver(trx, developerId, endpoint, url, [await current(trx)], true))[0]!),
      );
      return { done: Promise.resolve(delivered) };
    }
    // On record before it is sent, as every attempt: killed while it is out, it counts, and the
    // answer kept with it is the one a retry of the request gets, without sending it again.
    const begun = await this.record(developerId, async (trx) =>
      andRecorded(trx, recorded)((await beginAttempts(trx, env, [await current(trx)], true, this.lease))[0]!),
    );
    if (!url) {
      const missing = {
        url: '(built-in receiver, not listening)',
        httpStatus: null,
        responseBody: null,
        durationMs: 0,
        manual: true,
      };
      const finished = await this.record(developerId, (trx) =>
        finishAttempt(trx, env, begun, {
          ...missing,
          error: 'the sandbox is not listening, so its built-in receiver cannot be reached',
        }).then(andRecorded(trx, recorded)),
      );
      return { done: Promise.resolve(finished) };
    }
    return { done: this.attempts.track(lane, begun, true, url, signingSecrets(endpoint, env.clock.now()), recorded) };
  }
}
