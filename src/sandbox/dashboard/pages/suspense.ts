import type { SuspenseItem } from '../../../api/schemas/suspense.js';
import { html } from '../html.js';
import { link, money, pageOf, pager, refusal, table, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';

const LIMIT = 20;
const STATUSES: [string, string][] = [
  ['PENDING,FLAGGED', 'Open (pending or flagged)'],
  ['PENDING', 'Pending'],
  ['FLAGGED', 'Flagged'],
  ['RESOLVED', 'Resolved'],
  ['all', 'All'],
];
const REASONS = ['WALLET_CLOSED', 'AI_LOW_CONFIDENCE', 'AI_RISK_FLAG'];

const options = (chosen: string, choices: [string, string][]) =>
  choices.map(
    ([value, text]) => html`<option value="${value}" ${value === chosen ? html` selected` : ''}>${text}</option>`,
  );

/** The inbox of held payments, oldest first as a queue is worked, filtered by status and reason. */
export const suspenseList: PageHandler = async ({ api, query }) => {
  const status = query.status ?? 'PENDING,FLAGGED';
  const reason = query.reason ?? '';
  const page = pageOf(query);
  const form = html`<form class="inline" action="/suspense" method="get">
    <div>
      <label for="suspense-status">Status</label>
      <select id="suspense-status" name="status">
        ${options(status, STATUSES)}
      </select>
    </div>
    <div>
      <label for="suspense-reason">Reason</label>
      <select id="suspense-reason" name="reason">
        ${options(reason, [['', 'Any'], ...REASONS.map((r): [string, string] => [r, r])])}
      </select>
    </div>
    <button type="submit">Filter</button>
  </form>`;
  const listed = await api.get<{ items: SuspenseItem[]; total: number }>('/v1/suspense', {
    status: status === 'all' ? undefined : status,
    reason,
    page,
    limit: LIMIT,
  });
  if (!listed.ok)
    return { title: 'Suspense', section: 'Suspense', body: html`${form}${refusal(listed)}`, status: listed.status };
  const body = html`${form}
  ${table(
    'Held payments, oldest first',
    ['Received', 'Amount', 'Sender', 'Narration', 'Reason', 'Status', 'Item'],
    listed.data.items.map(
      (item) =>
        html`<tr>
          <td>${when(item.created_at)}</td>
          <td class="num">${money(item.amount)}</td>
          <td>${item.sender_name}</td>
          <td>${item.raw_narration}</td>
          <td>${item.reason}</td>
          <td>${item.status}</td>
          <td>${link('/suspense', item.id, 'Open')}</td>
        </tr>`,
    ),
    { empty: 'Nothing held here.' },
  )}
  ${pager('/suspense', { status, reason }, page, LIMIT, listed.data.total)}`;
  return { title: 'Suspense', section: 'Suspense', body };
};
