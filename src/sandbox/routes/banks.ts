import {
  BankList,
  MagicList,
  Payout,
  PayoutParams,
  ResolveBody,
  ResolvedAccount,
  TransactionIdParams,
} from '../../api/schemas/banks.js';
import { IdempotencyHeaders, Ok } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import { TransactionResponse } from '../../api/schemas/transactions.js';
import { BANKS } from '../../engine/banks/banks.js';
import { MAGIC_ACCOUNTS, ORDINARY_ACCOUNTS } from '../../engine/banks/magic.js';
import { nameEnquiry } from '../../engine/banks/name-enquiry.js';
import { notFound } from '../../engine/errors.js';
import { findPayoutOf } from '../../engine/payouts/payouts.repository.js';
import { resolvePayout } from '../../engine/payouts/payouts.service.js';
import { toPayout, toTransaction } from '../serialize.js';
import { type App, type RouteDeps, commit, ok } from './route.js';

/** The simulated provider: banks, name enquiry, magic accounts and manual payout outcomes. */
export function bankRoutes(app: App, { sandbox }: RouteDeps): void {
  const bankList = ok({ items: BANKS.map(({ code, name }) => ({ code, name })) });
  const magicList = ok({
    items: [...MAGIC_ACCOUNTS, ...ORDINARY_ACCOUNTS].map(({ account_number, name_enquiry, payout }) => ({
      account_number,
      name_enquiry,
      payout,
    })),
  });

  app.get(
    '/v1/banks',
    {
      schema: { tags: ['Banks'], summary: 'List banks supported for outbound transfers', response: { 200: BankList } },
    },
    async () => bankList,
  );

  app.post(
    '/v1/banks/resolve',
    {
      schema: {
        tags: ['Banks'],
        summary: 'Resolve an account number at a bank to its account name (name enquiry)',
        headers: IdempotencyHeaders,
        body: ResolveBody,
        response: { 200: Ok(ResolvedAccount), ...errors(422) },
      },
    },
    async (request) => {
      const resolved = await nameEnquiry(sandbox.db, request.body.bank_code, request.body.account_number);
      return ok({ account_number: resolved.account_number, account_name: resolved.account_name });
    },
  );

  app.get(
    '/sandbox/magic',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Magic external accounts and what the provider does with each',
        response: { 200: MagicList },
      },
    },
    async () => magicList,
  );

  app.get(
    '/sandbox/transactions/:tx_id/payout',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'The payout a transaction belongs to (its DEBIT, its fee or its reversal), as the provider holds it',
        params: TransactionIdParams,
        response: { 200: Ok(Payout), ...errors(404) },
      },
    },
    async (request) => {
      const payout = await findPayoutOf(sandbox.db, request.developerId, request.params.tx_id);
      if (!payout) throw notFound('payout');
      return ok(toPayout(payout));
    },
  );

  for (const outcome of ['settle', 'fail'] as const) {
    app.post(
      `/sandbox/payouts/:transaction_id/${outcome}`,
      {
        schema: {
          tags: ['Sandbox'],
          summary:
            outcome === 'settle'
              ? 'Settle a pending payout now (transfer.completed)'
              : 'Fail a pending payout now: FAILED, reversal of amount + fee (transfer.failed)',
          headers: IdempotencyHeaders,
          params: PayoutParams,
          response: { 200: TransactionResponse },
        },
      },
      async (request, reply) =>
        commit(
          request,
          reply,
          sandbox,
          (trx) =>
            resolvePayout(
              trx,
              request.env,
              request.developerId,
              request.params.transaction_id,
              outcome === 'settle' ? 'SETTLE' : 'FAIL',
            ),
          toTransaction,
        ),
    );
  }
}
