import type { Trx } from '../../engine/db/database.js';
import type { EngineEnv } from '../../engine/env.js';
import { LedgerError } from '../../engine/errors.js';
import { stillFresh } from '../../engine/events/fresh-deliveries.js';
import { type AttemptResult, recordAttempts, type WebhookLogRow } from '../../engine/events/webhooks.service.js';
import { keepReceived } from '../../engine/events/receiver-events.repository.js';
import { answerDelivery, type Behaviour, type ReceiverAnswer } from './receiver.js';
import { signatureHeader } from './signing.js';

// Deliveries handed to the built-in receiver inside the process, in one write: each is signed, the
// receiver checks it and answers, and the receiver's record, the attempt and the log's new state are
// written in that same transaction, so a delivery to the built-in receiver is never lost, sent twice
// or left unrecorded. The same code runs on the request thread (dispatcher.ts) and, for the
// deliveries kept in memory since they committed, on a worker thread with its own connection
// (`handOverJob`, through off-thread.ts `writesOffThread`), where the signing, the receiver's check
// and every statement of the handover leave the request thread.

/** What a handover depends on besides its deliveries, all chosen by the request thread. */
export interface Handover {
  developerId: string;
  /** The built-in receiver's URL (its host goes in the headers; the attempts record the URL). */
  url: string;
  /** The developer's signing secrets now (current and, within its grace period, previous). */
  secrets: string[];
  /** Real time in seconds: the webhook-timestamp header, and the receiver's "now" when it checks it. */
  nowSeconds: number;
  /** The sandbox's version, for the user-agent header. */
  version: string;
  manual: boolean;
}

/** The headers of one attempt of `log`, signed for `timestamp` (seconds). */
export function deliveryHeaders(log: WebhookLogRow, secrets: string[], timestamp: number, version: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': `ledger-sandbox/${version}`,
    'webhook-id': log.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, log.event_id, timestamp, log.payload),
  };
}

/** Deliveries answered by the built-in receiver, not yet written: the receiver's records and the attempts. */
export interface Answered {
  answers: ReceiverAnswer[];
  attempts: { log: WebhookLogRow; result: AttemptResult }[];
}

/**
 * Signs each of `logs` and has the built-in receiver check and answer it: CPU only, nothing
 * written. Ids and times come from `env` (the receiver's records', in the order of `logs`).
 */
export function answerAll(env: EngineEnv, handover: Handover, logs: WebhookLogRow[], behaviour?: Behaviour): Answered {
  const { developerId, url, secrets, nowSeconds, version, manual } = handover;
  const host = new URL(url).host;
  const timestamp = Math.floor(nowSeconds);
  const answers: ReceiverAnswer[] = [];
  const attempts = logs.map((log) => {
    const headers = { host, ...deliveryHeaders(log, secrets, timestamp, version), 'content-length': String(Buffer.byteLength(log.payload)) };
    let httpStatus: number;
    let responseBody: string;
    try {
      const answer = answerDelivery(env, developerId, secrets, nowSeconds, headers, log.payload, { eventType: log.event_type }, behaviour);
      answers.push(answer);
      [httpStatus, responseBody] = [answer.status, answer.body];
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      [httpStatus, responseBody] = [401, JSON.stringify({ success: false, detail: { code: error.code, message: error.message } })];
    }
    return { log, result: { url, httpStatus, responseBody, error: null, durationMs: 0, manual } };
  });
  return { answers, attempts };
}

/** Writes what `answerAll` gave, in `trx`: the receiver's records, then each attempt and its log's new state (attempt ids from `env`). */
export async function writeAnswered(trx: Trx, env: EngineEnv, developerId: string, answered: Answered): Promise<WebhookLogRow[]> {
  await keepReceived(trx, developerId, answered.answers.map((a) => a.record));
  return recordAttempts(trx, env, answered.attempts);
}

/**
 * Hands `logs` to the built-in receiver and records how each went, in `trx`: the receiver's record
 * of those it accepted, then each attempt and its log's new state. Ids and times come from `env`
 * (the receiver's records first, then the attempts, in the order of `logs`).
 */
export function deliverInTransaction(trx: Trx, env: EngineEnv, handover: Handover, logs: WebhookLogRow[], behaviour?: Behaviour): Promise<WebhookLogRow[]> {
  return writeAnswered(trx, env, handover.developerId, answerAll(env, handover, logs, behaviour));
}

/** A handover of deliveries kept in memory, for a worker: everything the request thread's state gives. */
export interface HandoverPlan extends Handover {
  /** Names the plan between its two steps on the worker. */
  key: number;
  /** The deliveries as kept in memory when they committed; those no longer waiting are left out. */
  logs: WebhookLogRow[];
  /** The developer's clock now, in ms. */
  nowMs: number;
  /** Ids drawn from the developer's source, two per log: the receiver's records' ids come first, then the attempts'. */
  ids: string[];
  /** The developer's injected failure as it stood (a copy: the answer says how many were used up). */
  behaviour?: Behaviour;
}

/** What a worker's handover did: the deliveries it handed over, by seq, and the injected failures used up. */
export interface HandoverDone {
  seqs: number[];
  used: number;
}

/** The plan's environment: its time, and its ids in order. */
function planEnv(plan: HandoverPlan): EngineEnv {
  let next = 0;
  const now = new Date(plan.nowMs);
  return { clock: { now: () => now }, ids: { uuid: () => plan.ids[next++]! } } as unknown as EngineEnv;
}

interface Prepared {
  plan: HandoverPlan;
  env: EngineEnv;
  answered: Answered;
  behaviour?: Behaviour;
}

/** Plans answered by `prepareHandoverJob` and not yet written, by key (on the worker). */
const prepared = new Map<number, Prepared>();
/** More than this waiting means some were never written (their write failed before it started): the oldest go. */
const PREPARED_LIMIT = 64;

/**
 * The first step on the worker, outside any lock and beside the request thread's writes: signs
 * every delivery of the plan and has the receiver answer it, as if all still wait (nearly always
 * so), and keeps the result for `commitHandoverJob`. Reads and writes nothing.
 */
export async function prepareHandoverJob(_trx: Trx, plan: HandoverPlan): Promise<void> {
  while (prepared.size >= PREPARED_LIMIT) prepared.delete(prepared.keys().next().value!);
  const env = planEnv(plan);
  const behaviour = plan.behaviour && { ...plan.behaviour };
  prepared.set(plan.key, { plan, env, answered: answerAll(env, plan, plan.logs, behaviour), behaviour });
}

/**
 * The second step, in one write transaction of the worker's connection between two batches of the
 * request thread's: of the plan's deliveries, those that still wait for their first attempt
 * (checked by seq, as the request thread does) are recorded as answered; when some no longer wait
 * (a reset or a restore came between), those left are answered again, as the request thread would.
 */
export async function commitHandoverJob(trx: Trx, key: number): Promise<HandoverDone> {
  const entry = prepared.get(key);
  prepared.delete(key);
  if (!entry) throw new Error(`handover ${key} was not prepared on this worker`);
  const { plan } = entry;
  const live = await stillFresh(trx, plan.logs);
  if (live.length === 0) return { seqs: [], used: 0 };
  let { env, answered, behaviour } = entry;
  if (live.length < plan.logs.length) {
    env = planEnv(plan);
    behaviour = plan.behaviour && { ...plan.behaviour };
    answered = answerAll(env, plan, live, behaviour);
  }
  await writeAnswered(trx, env, plan.developerId, answered);
  return { seqs: live.map((log) => log.seq), used: behaviour ? plan.behaviour!.remaining - behaviour.remaining : 0 };
}
