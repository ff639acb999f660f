import type { ResolvedAccount } from '../../../api/schemas/banks.js';
import type { SuspenseItemWithNotes } from '../../../api/schemas/suspense.js';
import type { Wallet } from '../../../api/schemas/wallets.js';
import { type RefundCheck, refundCheckOf, resolveQuestion } from '../../../text/refund.js';
import type { Api } from '../api.js';
import { type Html, html } from '../html.js';
import { facts, link, money, refusal, table, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';

const ACTION_TEXT: Record<string, string> = {
  CREDIT_WALLET: 'credit one of your wallets',
  DISMISS: 'keep it off every wallet (moves to the dismissed account)',
  REFUND: 'send it back to the sender, no fee',
};

/** Who sent it, with the account and bank only where the payment named them. */
const senderOf = (item: SuspenseItemWithNotes) => {
  const account = item.sender_account
    ? [item.sender_account, item.sender_bank_code].filter(Boolean).join(' at ')
    : item.sender_bank_code
      ? `bank ${item.sender_bank_code}`
      : '';
  return [item.sender_name, account].filter(Boolean).join(' · ') || 'not named';
};

const whom = (w: Wallet) => `${w.first_name} ${w.last_name}, ${w.customer_reference}`;

/**
 * The wallet a person most likely means, as the CLI suggests it: the one the payment was for while
 * it is active, else the one active wallet of the same customer (same email, or same names).
 */
async function likelyTarget(api: Api, walletId: string | null, active: Wallet[]): Promise<string | undefined> {
  if (!walletId) return undefined;
  if (active.some((w) => w.id === walletId)) return walletId;
  const own = await api.get<Wallet>(`/v1/wallets/${encodeURIComponent(walletId)}`);
  if (!own.ok) return undefined;
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const o = own.data;
  const matches = active.filter(
    (w) => same(w.email, o.email) || (same(w.first_name, o.first_name) && same(w.last_name, o.last_name)),
  );
  return matches.length === 1 ? matches[0]!.id : undefined;
}

/** The name enquiry a REFUND needs before anyone is asked (the CLI's refund check): its result, or why it cannot go. */
async function refundCheck(api: Api, item: SuspenseItemWithNotes): Promise<RefundCheck | string | undefined> {
  if (!item.sender_account || !item.sender_bank_code) return undefined;
  const resolved = await api.post<ResolvedAccount>('/v1/banks/resolve', {
    account_number: item.sender_account,
    bank_code: item.sender_bank_code,
  });
  if (resolved.ok) return refundCheckOf(item, resolved.data.account_name);
  return (
    `name enquiry on the sender's account ${item.sender_account} at bank ${item.sender_bank_code} ` +
    `failed (${resolved.message}), so a REFUND cannot go there`
  );
}

function resolveDialog(
  item: SuspenseItemWithNotes,
  active: Wallet[],
  suggested: string | undefined,
  refund: RefundCheck | string | undefined,
): Html {
  const actions = ['CREDIT_WALLET', 'DISMISS', ...(typeof refund === 'object' ? ['REFUND'] : [])];
  const id = encodeURIComponent(item.id);
  return html`<button type="button" data-open="resolve-dialog">Resolve…</button>
    <dialog id="resolve-dialog" aria-labelledby="resolve-title">
      <form class="stack" data-api="/v1/suspense/${id}/resolve" data-done="Resolved.">
        <h2 id="resolve-title">Resolve this payment</h2>
        ${facts([
          ['Amount', money(item.amount)],
          ['From', senderOf(item)],
          ['Narration', item.raw_narration],
          ['Reason held', item.reason],
        ])}
        <div>
          <label for="resolve-action">Action</label>
          <select id="resolve-action" name="action">
            ${actions.map(
              (a) =>
                html`<option
                  value="${a}"
                  data-question="${resolveQuestion(item, a === 'REFUND' ? (refund as RefundCheck) : undefined)}"
                >
                  ${a} – ${ACTION_TEXT[a]}
                </option>`,
            )}
          </select>
        </div>
        ${typeof refund === 'string' ? html`<p class="muted">No REFUND: ${refund}.</p>` : ''}
        <div data-when-action="CREDIT_WALLET">
          <label for="resolve-wallet">Wallet</label>
          <select id="resolve-wallet" name="target_wallet_id" required>
            <option value="" data-whom="">Choose a wallet</option>
            ${active.map(
              (w) =>
                html`<option value="${w.id}" data-whom="${whom(w)}" ${w.id === suggested ? html` selected` : ''}>
                  ${w.first_name} ${w.last_name} (${w.customer_reference}, ${w.account_number})
                </option>`,
            )}
          </select>
        </div>
        <div>
          <label for="resolve-note">Resolution note (optional)</label>
          <input id="resolve-note" name="note" maxlength="500" />
        </div>
        <p>
          <strong>What will happen:</strong>
          <output data-summary for="resolve-action resolve-wallet resolve-note"></output>
        </p>
        <p data-question></p>
        <div class="actions">
          <button type="submit">Confirm</button>
          <button type="button" class="secondary" data-close>Cancel</button>
        </div>
      </form>
    </dialog>`;
}

/** One held payment: what came, why it is held, its notes, and the work on it (resolve, flag, note). */
export const suspenseItem: PageHandler = async ({ api, params }) => {
  const found = await api.get<SuspenseItemWithNotes>(`/sandbox/suspense/${encodeURIComponent(params.id!)}`);
  if (!found.ok)
    return { title: 'Suspense item not found', section: 'Suspense', body: refusal(found), status: found.status };
  const item = found.data;
  const id = encodeURIComponent(item.id);
  let work: Html = html``;
  if (item.status !== 'RESOLVED') {
    const [wallets, refund] = await Promise.all([
      api.get<{ items: Wallet[] }>('/sandbox/wallets', { status: 'ACTIVE', limit: 100, order: 'desc' }),
      refundCheck(api, item),
    ]);
    const active = wallets.ok ? wallets.data.items : [];
    work = html`<section aria-labelledby="work">
      <h2 id="work">Work on it</h2>
      ${resolveDialog(item, active, await likelyTarget(api, item.wallet_id, active), refund)}
      <form class="stack" data-api="/v1/suspense/${id}/notes" data-done="Note added.">
        <div>
          <label for="note">Note</label>
          <textarea id="note" name="note" rows="3" maxlength="500" required></textarea>
        </div>
        <div class="actions">
          ${item.status === 'PENDING' ? html`<button type="submit" data-api="/v1/suspense/${id}/flag" data-done="Flagged.">Flag</button>` : ''}
          <button type="submit">Add note</button>
        </div>
      </form>
    </section>`;
  }
  const si = item.service_intelligence;
  const body = html`${facts([
    ['Amount', money(item.amount)],
    ['Status', item.status],
    ['Reason held', item.reason],
    ['From', senderOf(item)],
    ['Narration', item.raw_narration],
    ['To account', item.account_number],
    ['Wallet', item.wallet_id ? link('/wallets', item.wallet_id) : 'none'],
    ['Bank reference', item.provider_reference],
    ['Received', when(item.created_at)],
    [
      'Analysis',
      si
        ? `${si.extracted_intent} · ${si.suggested_label} · confidence ${si.confidence_score.toFixed(2)} · ${si.flags.join(', ') || 'no flags'}`
        : null,
    ],
    ...(item.status === 'RESOLVED'
      ? ([
          ['Resolution', `${item.resolution_action ?? ''} at ${when(item.resolved_at)}`],
          ['Resolution note', item.resolution_note],
          ['Credit', item.resolution_transaction_id ? link('/transactions', item.resolution_transaction_id) : null],
        ] as [string, Html | string | null][])
      : []),
    ['Item id', item.id],
  ])}
  ${work}
  ${table(
    'Notes, oldest first',
    ['Time', 'Kind', 'Note', 'By'],
    item.notes.map(
      (n) =>
        html`<tr>
          <td>${when(n.created_at)}</td>
          <td>${n.kind}</td>
          <td>${n.note}</td>
          <td>${n.author.business_name}</td>
        </tr>`,
    ),
    { empty: 'No notes.' },
  )}`;
  return { title: `Suspense item ${money(item.amount)} from ${item.sender_name}`, section: 'Suspense', body };
};
