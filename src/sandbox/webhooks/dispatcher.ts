import { dueLogs, findLog, getEndpoint, recordAttempt, RESPONSE_BODY_LIMIT, signingSecrets, type WebhookLogRow } from '../../engine/events/webhooks.service.js';
import type { Sandbox } from '../sandbox.js';
import { postWebhook } from './http-post.js';
import { signatureHeader } from './signing.js';

export interface DispatcherOptions {
  /** Seconds before an attempt is abandoned (contract §7: 15). */
  timeoutSeconds: number;
  /** Attempts in flight at once, over all endpoints. */
  concurrency?: number;
  version: string;
  /** Real time for the webhook-timestamp header: receivers check it against their own clock. */
  realNow?: () => number;
}

export interface Dispatcher {
  /** Where the built-in receiver listens, once the server does. Until then its deliveries wait. */
  setSelfUrl(url: string): void;
  /** Starts every due delivery that has a free slot and resolves when those attempts are recorded. */
  dispatchDue(): Promise<number>;
  /** One attempt now, whatever the schedule says (manual retry). */
  attemptNow(log: WebhookLogRow): Promise<WebhookLogRow>;
  /** Stops taking work and waits for attempts in flight, so none is lost or sent twice. */
  stop(): Promise<void>;
}

export function createDispatcher(sandbox: Sandbox, options: DispatcherOptions): Dispatcher {
  const { db, env } = sandbox;
  const concurrency = options.concurrency ?? 8;
  const realNow = options.realNow ?? Date.now;
  const inFlight = new Map<string, Promise<WebhookLogRow>>();
  let selfUrl: string | undefined;
  let stopped = false;
  let selecting: Promise<unknown> = Promise.resolve();

  async function endpointFor(log: WebhookLogRow) {
    const endpoint = await getEndpoint(db, log.developer_id);
    const url = endpoint.url ?? (selfUrl ? `${selfUrl}/sandbox/receiver/${log.developer_id}` : undefined);
    return { endpoint, url };
  }

  async function attempt(log: WebhookLogRow, manual: boolean, url: string, secrets: string[]): Promise<WebhookLogRow> {
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
    return sandbox.write(async (trx) => {
      const current = (await findLog(trx, log.id))!;
      return recordAttempt(trx, env, current, { url, httpStatus, responseBody, error, durationMs, manual });
    });
  }

  function track(log: WebhookLogRow, manual: boolean, url: string, secrets: string[]): Promise<WebhookLogRow> {
    const running = attempt(log, manual, url, secrets).finally(() => inFlight.delete(log.id));
    inFlight.set(log.id, running);
    return running;
  }

  return {
    setSelfUrl(url) {
      selfUrl = url;
    },
    async dispatchDue() {
      let total = 0;
      // Batch after batch until nothing that was due when this call began is left: work that
      // arrives meanwhile waits for the next call, so a steady stream of events cannot keep it going.
      const cutoff = env.clock.now();
      for (;;) {
        // Choosing what to send is serialized, so two callers never pick the same delivery.
        const started: Promise<WebhookLogRow>[] = [];
        const choosing = selecting.then(async () => {
          if (stopped) return;
          const slots = concurrency - inFlight.size;
          if (slots <= 0) return;
          // One endpoint lookup per developer in a batch (usually the whole batch is one developer's).
          const endpoints = new Map<string, ReturnType<typeof endpointFor>>();
          for (const log of await dueLogs(db, env, slots, [...inFlight.keys()], cutoff)) {
            if (!endpoints.has(log.developer_id)) endpoints.set(log.developer_id, endpointFor(log));
            const { endpoint, url } = await endpoints.get(log.developer_id)!;
            if (!url) continue;
            started.push(track(log, false, url, signingSecrets(endpoint, env.clock.now())));
          }
        });
        selecting = choosing.catch(() => {});
        await choosing;
        if (started.length === 0) {
          // Nothing new to start: wait for attempts another caller started, then look again.
          if (stopped || inFlight.size === 0) return total;
          await Promise.allSettled([...inFlight.values()]);
          continue;
        }
        await Promise.allSettled(started);
        total += started.length;
      }
    },
    async attemptNow(log) {
      const running = inFlight.get(log.id);
      if (running) await running.catch(() => {});
      const { endpoint, url } = await endpointFor(log);
      const fresh = (await findLog(db, log.id))!;
      if (!url) {
        return sandbox.write((trx) =>
          recordAttempt(trx, env, fresh, { url: '(built-in receiver, not listening)', httpStatus: null, responseBody: null, error: 'the sandbox is not listening, so its built-in receiver cannot be reached', durationMs: 0, manual: true }),
        );
      }
      return track(fresh, true, url, signingSecrets(endpoint, env.clock.now()));
    },
    async stop() {
      stopped = true;
      await selecting;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
