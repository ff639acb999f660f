import type { SearchResult } from '../../../api/schemas/search.js';
import type { Transaction } from '../../../api/schemas/transactions.js';
import type { Wallet } from '../../../api/schemas/wallets.js';
import { html } from '../html.js';
import { facts, link, money, pageOf, pager, refusal, table, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';

const LIMIT = 20;

interface Row {
  id: string;
  customer: string;
  reference: string;
  account: string;
  balance: number;
  status: string;
}

const walletRows = (rows: Row[]) =>
  table(
    'Wallets',
    ['Customer', 'Customer reference', 'Account number', 'Balance', 'Status'],
    rows.map(
      (w) =>
        html`<tr>
          <td>${link('/wallets', w.id, w.customer || w.id)}</td>
          <td>${w.reference}</td>
          <td>${w.account}</td>
          <td class="num">${money(w.balance)}</td>
          <td>${w.status}</td>
        </tr>`,
    ),
    { empty: 'No wallet matches.' },
  );

/**
 * Wallets newest first, a page at a time; a search goes through the support search (names,
 * references, account numbers, ids), as `ledger find --kind wallet` does.
 */
export const wallets: PageHandler = async ({ api, query }) => {
  const q = (query.q ?? '').trim();
  const form = html`<form class="inline" role="search" action="/wallets" method="get">
    <div><label for="wallet-q">Search wallets</label><input id="wallet-q" name="q" type="search" value="${q}" /></div>
    <button type="submit">Search</button>
  </form>`;
  if (q) {
    const found = await api.get<SearchResult>('/sandbox/search', { q, kind: 'wallet', limit: 100 });
    if (!found.ok) return { title: 'Wallets', section: 'Wallets', body: html`${form}${refusal(found)}` };
    const rows = found.data.items.flatMap((m) =>
      m.kind === 'wallet'
        ? [
            {
              id: m.id,
              customer: m.customer_name ?? '',
              reference: m.customer_reference,
              account: m.account_number,
              balance: m.balance,
              status: m.status,
            },
          ]
        : [],
    );
    const more = found.data.more.length
      ? html`<p class="muted">The first 100 matches: a longer search narrows them.</p>`
      : '';
    return { title: 'Wallets', section: 'Wallets', body: html`${form}${walletRows(rows)}${more}` };
  }
  const page = pageOf(query);
  const listed = await api.get<{ items: Wallet[]; total: number }>('/sandbox/wallets', {
    page,
    limit: LIMIT,
    order: 'desc',
  });
  if (!listed.ok)
    return { title: 'Wallets', section: 'Wallets', body: html`${form}${refusal(listed)}`, status: listed.status };
  const rows = listed.data.items.map((w) => ({
    id: w.id,
    customer: `${w.first_name} ${w.last_name}`,
    reference: w.customer_reference,
    account: w.account_number,
    balance: w.balance,
    status: w.status,
  }));
  return {
    title: 'Wallets',
    section: 'Wallets',
    body: html`${form}${walletRows(rows)}${pager('/wallets', {}, page, LIMIT, listed.data.total)}`,
  };
};

/** One wallet and its ledger, newest first: each line's balance after it is the running balance. */
export const wallet: PageHandler = async ({ api, params, query }) => {
  const id = params.id!;
  const page = pageOf(query);
  const [found, lines] = await Promise.all([
    api.get<Wallet>(`/v1/wallets/${encodeURIComponent(id)}`),
    api.get<{ items: Transaction[]; total: number }>(`/v1/wallets/${encodeURIComponent(id)}/transactions`, {
      page,
      limit: LIMIT,
      order: 'desc',
    }),
  ]);
  if (!found.ok) return { title: 'Wallet not found', section: 'Wallets', body: refusal(found), status: found.status };
  const w = found.data;
  const body = html`${facts([
      ['Balance', money(w.balance)],
      ['Customer', `${w.first_name} ${w.last_name}`],
      ['Customer reference', w.customer_reference],
      ['Account', `${w.account_number} · ${w.bank_name} · ${w.account_name}`],
      ['Email', w.email],
      ['Status', w.status],
      ['Transfers out', w.allow_transfers_out ? 'allowed' : 'not allowed'],
      ['Wallet id', w.id],
      ['Created', when(w.created_at)],
    ])}
    <h2>Ledger</h2>
    ${
      lines.ok
        ? html`${table(
            'Transactions, newest first, with the balance after each',
            ['Time', 'Type', 'Amount', 'Status', 'Balance after', 'Counterparty', 'Narration', 'Transaction'],
            lines.data.items.map(
              (t) =>
                html`<tr>
                  <td>${when(t.created_at)}</td>
                  <td>${t.type}</td>
                  <td class="num">${t.type === 'DEBIT' ? '−' : ''}${money(t.amount)}</td>
                  <td>${t.status}</td>
                  <td class="num">${money(t.balance_after)}</td>
                  <td>${t.type === 'DEBIT' ? (t.destination_account_name ?? '') : t.sender_name}</td>
                  <td>${t.raw_narration}</td>
                  <td>${link('/transactions', t.id, 'Details')}</td>
                </tr>`,
            ),
            { empty: 'No transactions yet.' },
          )}${pager(`/wallets/${encodeURIComponent(id)}`, {}, page, LIMIT, lines.data.total)}`
        : refusal(lines)
    }`;
  return { title: `Wallet ${w.first_name} ${w.last_name}`, section: 'Wallets', body };
};
