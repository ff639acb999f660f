import type { Transaction } from '../../../api/schemas/transactions.js';
import { html } from '../html.js';
import { facts, link, money, refusal, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';

/** One transaction with what the narration analysis made of it (its service_intelligence). */
export const transaction: PageHandler = async ({ api, params }) => {
  const found = await api.get<Transaction>(`/v1/transactions/${encodeURIComponent(params.id!)}`);
  if (!found.ok) return { title: 'Transaction not found', body: refusal(found), status: found.status };
  const t = found.data;
  const si = t.service_intelligence;
  const payout = t.destination_account_number
    ? ([
        [
          'Destination',
          `${t.destination_account_name ?? ''} · ${t.destination_account_number} at ${t.destination_bank_code ?? ''}`,
        ],
        ['NIP fee', money(t.fee)],
      ] as [string, string][])
    : [];
  const body = html`${facts([
      ['Amount', money(t.amount)],
      ['Type', t.type],
      ['Status', t.status],
      ['Balance before', money(t.balance_before)],
      ['Balance after', money(t.balance_after)],
      ['Wallet', link('/wallets', t.wallet_id)],
      ['Sender', `${t.sender_name}${t.sender_account ? ` · ${t.sender_account}` : ''}`],
      ['Narration', t.raw_narration],
      ['Bank reference', t.provider_reference],
      ...payout,
      ['Created', when(t.created_at)],
      ['Updated', when(t.updated_at)],
      ['Transaction id', t.id],
    ])}
    <section aria-labelledby="si">
      <h2 id="si">Service intelligence</h2>
      ${
        si
          ? html`${facts([
                ['Intent', si.extracted_intent],
                ['Suggested label', si.suggested_label],
                ['Confidence', si.confidence_score.toFixed(2)],
                ['Flags', si.flags.length ? si.flags.join(', ') : 'none'],
                ['Narration read', si.raw_narration],
              ])}
              <h3>Why</h3>
              <ol>
                ${si.explanation.map((line) => html`<li>${line}</li>`)}
              </ol>`
          : html`<p>No analysis: this transaction has no narration to read.</p>`
      }
    </section>`;
  return { title: `Transaction ${money(t.amount)} ${t.type.toLowerCase()}`, body };
};
