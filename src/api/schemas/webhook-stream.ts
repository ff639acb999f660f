import { z } from 'zod';
import { WebhookAttempt, WebhookLog } from './webhooks.js';

/** The path of the delivery-attempt stream (`ledger webhooks tail` follows it). */
export const WEBHOOK_STREAM_PATH = '/sandbox/webhook-logs/stream';

/**
 * One `attempt` event of the stream: the delivery as it stood right after the attempt, and the
 * attempt itself (its time, URL, status code and response).
 */
export const WebhookAttemptEvent = z
  .object({ log: WebhookLog, attempt: WebhookAttempt })
  .meta({ id: 'WebhookAttemptEvent' });
export type WebhookAttemptEvent = z.infer<typeof WebhookAttemptEvent>;

export const WebhookStreamQuery = z.strictObject({});
