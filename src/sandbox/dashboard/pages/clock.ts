import type { ClockState } from '../../../api/schemas/sandbox.js';
import type { Transaction } from '../../../api/schemas/transactions.js';
import type { WebhookLog } from '../../../api/schemas/webhooks.js';
import { html } from '../html.js';
import { facts, refusal, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';
import { deliveryTable, transactionTable } from './tables.js';

/**
 * The developer's clock, the form that moves it (a duration as `ledger sandbox clock advance` takes
 * it), and after a move what ran in the time it crossed: the transactions and the events (each with
 * its delivery) made between the old time and the new. A settled payout is its event there.
 */
export const clock: PageHandler = async ({ api, query }) => {
  const state = await api.get<ClockState>('/sandbox/clock');
  if (!state.ok) return { title: 'Clock', section: 'Clock', body: refusal(state), status: state.status };
  const { now, offset_seconds } = state.data;
  const from = query.from && !Number.isNaN(Date.parse(query.from)) ? query.from : undefined;
  let ran = html``;
  if (from) {
    // Made after the old time: what stood at it was there before the move.
    const window = { since: new Date(Date.parse(from) + 1).toISOString(), until: now, limit: 100, order: 'asc' };
    const [transactions, deliveries] = await Promise.all([
      api.get<{ items: Transaction[] }>('/v1/transactions', window),
      api.get<{ items: WebhookLog[] }>('/v1/webhook-logs', window),
    ]);
    ran = html`<section aria-labelledby="ran">
      <h2 id="ran">What ran from ${when(from)} to ${when(now)}</h2>
      ${transactionTable('Transactions made', transactions, 'No transaction was made.')}
      ${deliveries.ok ? deliveryTable('Events and their deliveries', deliveries.data.items, 'No event happened.') : refusal(deliveries)}
    </section>`;
  }
  const body = html`${facts([
      ['Now (sandbox clock)', now],
      ['Advanced', offset_seconds === 0 ? 'never' : `${offset_seconds} s in all`],
    ])}
    <form class="inline" data-api="/sandbox/clock/advance" data-then="/clock?from=${encodeURIComponent(now)}">
      <div>
        <label for="advance-by">Advance by</label>
        <input id="advance-by" name="seconds" data-type="duration" required placeholder="90s, 5m, 2h, 1d" />
      </div>
      <button type="submit">Advance</button>
    </form>
    <p class="muted">
      Moving the clock runs everything of yours that falls due on the way, in order: settlements, payouts, webhook
      retries.
    </p>
    ${ran}`;
  return { title: 'Clock', section: 'Clock', body };
};
