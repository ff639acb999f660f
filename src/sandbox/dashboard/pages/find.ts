import type { SearchMatch, SearchResult } from '../../../api/schemas/search.js';
import { type Html, html } from '../html.js';
import { link, money, refusal, table, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';

/** Each kind's name and what tells one match apart, as `ledger find` lists them. */
function describe(match: SearchMatch): [string, Html] {
  switch (match.kind) {
    case 'wallet':
      return [
        'Wallet',
        html`${link('/wallets', match.id, match.customer_name ?? match.id)} (${match.customer_reference}) ·
        ${match.account_number} · ${money(match.balance)} · ${match.status}`,
      ];
    case 'transaction':
      return [
        'Transaction',
        html`${link('/transactions', match.id, `${match.type} ${money(match.amount)}`)} · ${match.status} ·
        ${match.customer_name ?? match.wallet_id} · from ${match.sender_name} · “${match.raw_narration}” ·
        ${match.provider_reference}`,
      ];
    case 'suspense_item':
      return [
        'Suspense item',
        html`${link('/suspense', match.id, money(match.amount))} · ${match.status} · ${match.reason} · from
        ${match.sender_name} · “${match.raw_narration}” · ${match.provider_reference}`,
      ];
    case 'webhook_log':
      return [
        'Webhook delivery',
        html`${link('/webhooks', match.id, match.event_type)} · ${match.status} · ${match.attempt_count} attempts`,
      ];
    case 'agent':
      return ['Agent', html`${link('/wallets', match.wallet_id, match.name)} · ${match.trigger} → ${match.action}`];
  }
}

/** The support search: a bank reference, a session id, an account number, a wallet, a reference, a name or words of a narration. */
export const find: PageHandler = async ({ api, query }) => {
  const q = (query.q ?? '').trim();
  if (!q)
    return {
      title: 'Find a payment',
      body: html`<p>
        Search by bank reference, NIP session id, account number, customer reference, name or narration with the search
        box above.
      </p>`,
    };
  const found = await api.get<SearchResult>('/sandbox/search', { q, limit: 10 });
  if (!found.ok)
    return { title: 'Find a payment', body: refusal(found), status: found.status === 400 ? 200 : found.status };
  const { items, more } = found.data;
  const body = html`<p>
      ${items.length === 0 ? `Nothing of yours matches “${q}”.` : `Matches for “${q}”, grouped by kind, newest first.`}
    </p>
    ${
      items.length
        ? table(
            'Matches',
            ['Kind', 'Match', 'Matched on', 'Created'],
            items.map((match) => {
              const [kind, what] = describe(match);
              return html`<tr>
                <td>${kind}</td>
                <td>${what}</td>
                <td>${match.matched}</td>
                <td>${when(match.created_at)}</td>
              </tr>`;
            }),
          )
        : ''
    }
    ${more.length ? html`<p class="muted">More than 10 of: ${more.join(', ')}. A longer search narrows them.</p>` : ''}`;
  return { title: 'Find a payment', body };
};
