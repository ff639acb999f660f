import type { Report } from '../../../api/schemas/report.js';
import type { Transaction } from '../../../api/schemas/transactions.js';
import { html } from '../html.js';
import { facts, link, money, refusal, table, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';
import { transactionTable } from './tables.js';

const figure = (name: string, value: string, note = '') =>
  html`<div class="figure">
    <div class="muted">${name}</div>
    <div class="value">${value}</div>
    ${note ? html`<div class="muted">${note}</div>` : ''}
  </div>`;

const payouts = (count: number) => (count === 1 ? '1 payout' : `${count} payouts`);

/** Counts and amounts by two names, as the report groups them. */
const totals = (
  caption: string,
  names: [string, string],
  rows: [string, string, { count: number; amount: number | string }][],
) =>
  table(
    caption,
    [...names, 'Count', 'Amount'],
    rows.map(
      ([first, second, total]) =>
        html`<tr>
          <td>${first}</td>
          <td>${second}</td>
          <td class="num">${total.count}</td>
          <td class="num">${money(total.amount)}</td>
        </tr>`,
    ),
  );

/**
 * The report's numbers for today and the ten newest transactions: two bounded reads, whatever the
 * sandbox holds, so the first page stays fast on a large ledger.
 */
export const overview: PageHandler = async ({ api }) => {
  const [report, recent] = await Promise.all([
    api.get<Report>('/sandbox/report'),
    api.get<{ items: Transaction[] }>('/v1/transactions', { order: 'desc', limit: 10 }),
  ]);
  if (!report.ok) return { title: 'Overview', section: 'Overview', body: refusal(report), status: report.status };
  const r = report.data;
  const o = r.money_out;
  const body = html`<p class="muted">
      Today so far, on the sandbox clock (Lagos, UTC+1): ${when(r.since)} to ${when(r.until)}.
    </p>
    <section aria-labelledby="money">
      <h2 id="money">Money</h2>
      <div class="figures">
        ${figure('Money in', money(r.money_in.amount), r.money_in.count === 1 ? '1 inbound credit' : `${r.money_in.count} inbound credits`)}
        ${figure('Payouts settled', money(o.settled.amount), payouts(o.settled.count))}
        ${figure('Payouts pending', money(o.pending.amount), payouts(o.pending.count))}
        ${figure('Payouts failed, reversed', money(o.failed.amount), payouts(o.failed.count))}
        ${figure('NIP fees', money(o.fees))} ${figure('Net (in − payouts)', money(r.net))}
      </div>
    </section>
    ${totals(
      'Transactions by type and status',
      ['Type', 'Status'],
      r.transactions.map((t) => [t.type, t.status, t]),
    )}
    <section aria-labelledby="suspense">
      <h2 id="suspense">Suspense</h2>
      ${totals(
        'Suspense items by status and reason',
        ['Status', 'Reason'],
        r.suspense.items.map((i) => [i.status, i.reason, i]),
      )}
      ${
        r.suspense.oldest_waiting
          ? html`<p>
              Oldest waiting: ${link('/suspense', r.suspense.oldest_waiting.id)} (${r.suspense.oldest_waiting.reason},
              ${Math.floor(r.suspense.oldest_waiting.age_seconds / 60)} minutes)
            </p>`
          : ''
      }
    </section>
    <section aria-labelledby="webhooks">
      <h2 id="webhooks">Webhooks</h2>
      ${facts(r.webhooks.deliveries.map((d) => [d.status, d.count]))}
      ${table(
        'Failing endpoints',
        ['URL', 'Failed attempts', 'Still failing', 'Last error'],
        r.webhooks.failing_endpoints.map(
          (e) =>
            html`<tr>
              <td>${e.url}</td>
              <td class="num">${e.failed_attempts}</td>
              <td class="num">${e.failing_deliveries}</td>
              <td>
                ${
                  e.last_error.http_status_code === null
                    ? (e.last_error.error ?? 'no answer')
                    : `HTTP ${e.last_error.http_status_code} ${e.last_error.response_body ?? ''}`
                }
              </td>
            </tr>`,
        ),
        { empty: 'No failing endpoint.' },
      )}
    </section>
    <section aria-labelledby="recent">
      <h2 id="recent">Recent transactions</h2>
      ${transactionTable('The ten newest transactions', recent, 'No transactions yet.')}
    </section>`;
  return { title: 'Overview', section: 'Overview', body };
};
