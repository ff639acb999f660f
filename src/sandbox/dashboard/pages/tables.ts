import type { Transaction } from '../../../api/schemas/transactions.js';
import type { WebhookLog } from '../../../api/schemas/webhooks.js';
import type { ApiAnswer } from '../api.js';
import { html } from '../html.js';
import { link, money, refusal, table, when } from '../layout.js';

/** Transactions as the overview and the clock list them, or the API's refusal. */
export function transactionTable(caption: string, answer: ApiAnswer<{ items: Transaction[] }>, empty: string) {
  if (!answer.ok) return refusal(answer);
  return table(
    caption,
    ['Time', 'Type', 'Amount', 'Status', 'Narration', 'Wallet', 'Transaction'],
    answer.data.items.map(
      (t) =>
        html`<tr>
          <td>${when(t.created_at)}</td>
          <td>${t.type}</td>
          <td class="num">${money(t.amount)}</td>
          <td>${t.status}</td>
          <td>${t.raw_narration}</td>
          <td>${link('/wallets', t.wallet_id, 'Wallet')}</td>
          <td>${link('/transactions', t.id, 'Details')}</td>
        </tr>`,
    ),
    { empty },
  );
}

/** Deliveries as the webhooks page and the clock list them. */
export function deliveryTable(caption: string, items: WebhookLog[], empty: string) {
  return table(
    caption,
    ['Created', 'Event', 'Status', 'HTTP', 'Attempts', 'Next retry', 'Delivery'],
    items.map(
      (d) =>
        html`<tr>
          <td>${when(d.created_at)}</td>
          <td>${d.event_type}</td>
          <td>${d.status}</td>
          <td>${d.http_status_code ?? '—'}</td>
          <td class="num">${d.attempt_count}</td>
          <td>${when(d.next_retry_at)}</td>
          <td>${link('/webhooks', d.id, 'Details')}</td>
        </tr>`,
    ),
    { empty },
  );
}
