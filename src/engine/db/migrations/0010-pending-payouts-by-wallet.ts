import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const pendingPayoutsByWallet = inBaseline(async (db: Kysely<unknown>) => {
  // A credit to a wallet checks its balance plus its pending payouts against the ceiling
  // (accounts.repository.ts), so a reversal always fits: one indexed look-up per credit.
  await db.schema.createIndex('payouts_wallet_status').on('payouts').columns(['wallet_id', 'status']).execute();
});
