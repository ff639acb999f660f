import type { MagicAccount } from '../../../api/schemas/banks.js';
import { html } from '../html.js';
import { refusal, table } from '../layout.js';
import type { PageHandler } from '../page-types.js';

/** The account numbers whose name enquiry and payouts behave on purpose (`ledger sandbox magic`). */
export const magic: PageHandler = async ({ api }) => {
  const found = await api.get<{ items: MagicAccount[] }>('/sandbox/magic');
  if (!found.ok) return { title: 'Magic values', section: 'Magic values', body: refusal(found), status: found.status };
  const body = html`<p>
      Payouts and name enquiries to these account numbers (any bank code) behave as shown, so each outcome can be tried
      on purpose.
    </p>
    ${table(
      'Magic account numbers',
      ['Account number', 'Name enquiry', 'Payout'],
      found.data.items.map(
        (m) =>
          html`<tr>
            <td>${m.account_number}</td>
            <td>${m.name_enquiry}</td>
            <td>${m.payout}</td>
          </tr>`,
      ),
    )}`;
  return { title: 'Magic values', section: 'Magic values', body };
};
