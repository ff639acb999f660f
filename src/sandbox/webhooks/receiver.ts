import type { Selectable } from 'kysely';
import type { Trx } from '../../engine/db/database.js';
import { RECEIVER_ACCEPTED } from '../../engine/events/answers.js';
import type { ReceiverEventTable } from '../../engine/events/events.table.js';
import { keepReceived } from '../../engine/events/receiver-events.repository.js';
import { type Endpoint, signingSecrets } from '../../engine/events/webhooks.service.js';
import { LedgerError } from '../../engine/errors.js';
import type { Sandbox } from '../sandbox.js';
import { verifySignature } from './signing.js';

type Received = Omit<Selectable<ReceiverEventTable>, 'seq'>;

/** Headers a receiver must never keep: credentials that a caller may have sent along. */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);

/** How far a delivery's webhook-timestamp may be from now, as the standardwebhooks package allows. */
const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** What the receiver answered: its status and the exact body it sent. */
export interface ReceiverAnswer {
  status: number;
  body: string;
  /** The record to keep, in the same transaction as whatever else the caller writes. */
  record: Received;
}

/**
 * The built-in receiver, the default webhook endpoint (decisions: Webhooks). It accepts only deliveries
 * signed (Standard Webhooks) with that developer's current or previous secret, within five minutes
 * of now, and keeps each with its headers (no credentials), body and the signature check; anything
 * else is refused with 401 and leaves no trace (not kept, no injected failure used up). Deliveries
 * reach it over HTTP (`POST /sandbox/receiver/:developer_id`), or, from this sandbox's own
 * dispatcher, handed over inside the process: the same checks and the same record, written in the
 * same transaction as the attempt's, with no socket in between.
 */
export interface BuiltInReceiver {
  /**
   * Checks one delivery to `developerId` and decides the answer, using up an injected failure;
   * throws UNAUTHORIZED when the delivery is not signed for that developer. `payloadOf`: the body
   * is exactly the payload of the event named by webhook-id, of this type (kept as a reference).
   */
  answer(
    developerId: string,
    endpoint: Endpoint,
    headers: Record<string, string>,
    body: string,
    payloadOf?: { eventType: string },
  ): ReceiverAnswer;
  /** Keeps answered deliveries of one developer (in the caller's transaction). */
  keep(trx: Trx, developerId: string, answers: ReceiverAnswer[]): Promise<void>;
}

export function createReceiver(
  sandbox: Sandbox,
  realNow: () => number,
): BuiltInReceiver & { behaviours: Map<string, { status: number; remaining: number }> } {
  /** Failure injection per developer: answer `status` to the next `remaining` deliveries. In memory: a restart clears it. */
  const behaviours = new Map<string, { status: number; remaining: number }>();
  // Injected failures belong to the state a restore replaces: the restored sandbox starts without any.
  sandbox.onRestore(() => behaviours.clear());
  return {
    behaviours,
    answer(developerId, endpoint, headers, body, payloadOf) {
      const env = sandbox.envFor(developerId);
      const header = (name: string) => headers[name] ?? '';
      const timestamp = Number(header('webhook-timestamp'));
      const fresh =
        /^\d{1,12}$/.test(header('webhook-timestamp')) &&
        Math.abs(realNow() / 1000 - timestamp) <= TIMESTAMP_TOLERANCE_SECONDS;
      if (
        !fresh ||
        !verifySignature(
          signingSecrets(endpoint, env.clock.now()),
          header('webhook-id'),
          header('webhook-timestamp'),
          body,
          header('webhook-signature'),
        )
      ) {
        throw new LedgerError(
          'UNAUTHORIZED',
          'not a delivery of this sandbox: the Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature) is missing, stale or wrong',
        );
      }
      const behaviour = behaviours.get(developerId);
      let status = 200;
      if (behaviour && behaviour.remaining > 0) {
        status = behaviour.status;
        behaviour.remaining -= 1;
      }
      let eventType: string | null = payloadOf?.eventType ?? null;
      if (!payloadOf) {
        try {
          eventType = (JSON.parse(body) as { event_type?: string }).event_type ?? null;
        } catch {
          eventType = null;
        }
      }
      const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !SECRET_HEADERS.has(k)));
      return {
        status,
        body:
          status < 300
            ? RECEIVER_ACCEPTED
            : JSON.stringify({ error: `failure injected by PUT /sandbox/receiver/behaviour (${status})` }),
        record: {
          id: env.ids.uuid(),
          developer_id: developerId,
          webhook_id: header('webhook-id') || null,
          event_type: eventType,
          headers: JSON.stringify(kept),
          body: payloadOf ? null : body,
          // Kept for the record's shape: only verified deliveries are stored.
          signature_valid: 1,
          response_status: status,
          created_at: env.clock.now().toISOString(),
        },
      };
    },
    keep: (trx, developerId, answers) =>
      keepReceived(
        trx,
        developerId,
        answers.map((a) => a.record),
      ),
  };
}
