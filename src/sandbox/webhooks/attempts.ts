import type { Transaction } from 'kysely';
import type { Database } from '../../engine/db/database.js';
import { LedgerError } from '../../engine/errors.js';
import {
  attemptStillOut,
  type Endpoint,
  finishAttempt,
  getEndpoint,
  recordAttempts,
  RESPONSE_BODY_LIMIT,
  signingSecrets,
  type WebhookLogRow,
} from '../../engine/events/webhooks.service.js';
import type { Sandbox } from '../sandbox.js';
import { postWebhook } from './http-post.js';
import type { Lane } from './lanes.js';
import type { BuiltInReceiver, ReceiverAnswer } from './receiver.js';
import { signatureHeader } from './signing.js';

/** A write of the dispatcher's in a developer's lane (paused while the storage refuses writes). */
export type LaneWrite = <T>(developerId: string, work: (trx: Transaction<Database>) => Promise<T>) => Promise<T>;

/** Runs in a write that moved a log, with the log as that write leaves it. */
export type Recorded = (trx: Transaction<Database>, log: WebhookLogRow) => Promise<void>;

/** What an attempt needs of the dispatcher's options (DispatcherOptions says what each is). */
export interface AttemptOptions {
  timeoutSeconds: number;
  leaseSeconds?: number | undefined;
  version: string;
  realNow?: () => number;
  receiver?: BuiltInReceiver;
}

/** Passes `log` to `recorded` (if any) in `trx`, then on. */
export const andRecorded =
  (trx: Transaction<Database>, recorded: Recorded | undefined) =>
  async (log: WebhookLogRow): Promise<WebhookLogRow> => {
    await recorded?.(trx, log);
    return log;
  };

/**
 * How one attempt goes out and is recorded: to the built-in receiver inside the process, or over
 * HTTP to the developer's URL, signed (Standard Webhooks) with its current and previous secrets.
 * @example const attempts = new Attempts(sandbox, options, record); const { url, inProcess } = await attempts.endpointFor(developerId);
 */
export class Attempts {
  private selfUrl: string | undefined;
  private readonly realNow: () => number;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly options: AttemptOptions,
    private readonly record: LaneWrite,
  ) {
    this.realNow = options.realNow ?? Date.now;
  }

  /** Where the built-in receiver listens, once the server does. */
  setSelfUrl(url: string): void {
    this.selfUrl = url;
  }

  /** Where a developer's deliveries go now: its own URL, or the built-in receiver (once the server listens). */
  async endpointFor(developerId: string) {
    const endpoint = await getEndpoint(this.sandbox.db, developerId);
    const builtIn = endpoint.url === null;
    const url = endpoint.url ?? (this.selfUrl ? `${this.selfUrl}/sandbox/receiver/${developerId}` : undefined);
    return { endpoint, url, inProcess: builtIn && this.options.receiver !== undefined };
  }

  /** The headers of one attempt of `log`, signed now. */
  private headers(log: WebhookLogRow, secrets: string[]): Record<string, string> {
    const timestamp = Math.floor(this.realNow() / 1000);
    return {
      'content-type': 'application/json',
      'user-agent': `ledger-sandbox/${this.options.version}`,
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
  async handOver(
    trx: Transaction<Database>,
    developerId: string,
    endpoint: Endpoint,
    url: string,
    logs: WebhookLogRow[],
    manual: boolean,
  ): Promise<WebhookLogRow[]> {
    const receiver = this.options.receiver!;
    const env = this.sandbox.envFor(developerId);
    const secrets = signingSecrets(endpoint, env.clock.now());
    const host = new URL(url).host;
    const answers: ReceiverAnswer[] = [];
    const attempts = logs.map((log) => {
      const headers = { host, ...this.headers(log, secrets), 'content-length': String(Buffer.byteLength(log.payload)) };
      let httpStatus: number;
      let responseBody: string;
      try {
        const answer = receiver.answer(developerId, endpoint, headers, log.payload, { eventType: log.event_type });
        answers.push(answer);
        [httpStatus, responseBody] = [answer.status, answer.body];
      } catch (error) {
        if (!(error instanceof LedgerError)) throw error;
        [httpStatus, responseBody] = [
          401,
          JSON.stringify({ success: false, detail: { code: error.code, message: error.message } }),
        ];
      }
      return { log, result: { url, httpStatus, responseBody, error: null, durationMs: 0, manual } };
    });
    await receiver.keep(trx, developerId, answers);
    return recordAttempts(trx, env, attempts);
  }

  /** Sends one begun attempt over HTTP, in the lane's slots, and records its outcome (see `send`). */
  track(
    lane: Lane,
    log: WebhookLogRow,
    manual: boolean,
    url: string,
    secrets: string[],
    recorded?: Recorded,
  ): Promise<WebhookLogRow | undefined> {
    const running = this.send(lane, log, manual, url, secrets, recorded).finally(() => lane.inFlight.delete(log.id));
    lane.inFlight.set(log.id, running);
    return running;
  }

  /** Sends one begun attempt over HTTP and records its outcome. Resolves undefined when that record failed, or the attempt was cancelled. */
  private async send(
    lane: Lane,
    log: WebhookLogRow,
    manual: boolean,
    url: string,
    secrets: string[],
    recorded?: Recorded,
  ): Promise<WebhookLogRow | undefined> {
    const lease = this.options.leaseSeconds;
    const { epoch } = lane;
    const controller = new AbortController();
    lane.aborts.set(log.id, controller);
    const env = this.sandbox.envFor(log.developer_id);
    // Measured on the developer's clock, like every time the sandbox reports: a manual clock stands
    // still while an attempt runs, so its attempts take 0 ms and two runs report the same.
    const started = env.clock.now().getTime();
    let httpStatus: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    try {
      const response = await postWebhook(new URL(url), this.headers(log, secrets), log.payload, {
        timeoutMs: this.options.timeoutSeconds * 1000,
        limit: RESPONSE_BODY_LIMIT,
        signal: controller.signal,
      });
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
    const gone = async (trx: Transaction<Database>) =>
      cancelled() || (lease !== undefined && !(await attemptStillOut(trx, log)));
    if (manual)
      return this.record(log.developer_id, async (trx) =>
        (await gone(trx)) ? undefined : finishAttempt(trx, env, log, result).then(andRecorded(trx, recorded)),
      );
    // An outcome that cannot be written leaves the log due at its next retry (see beginAttempts).
    return this.record(log.developer_id, async (trx) =>
      (await gone(trx)) ? undefined : finishAttempt(trx, env, log, result),
    ).catch(() => undefined);
  }
}
