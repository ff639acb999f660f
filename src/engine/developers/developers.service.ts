import { sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { type EngineEnv, envOf } from '../env.js';
import { newWebhookSecret } from '../secrets.js';
import { insertAccount } from '../ledger/accounts.repository.js';
import type { AccountKind } from '../ledger/ledger.table.js';
import { issueKey } from './keys.js';

export const SANDBOX_BUSINESS_NAME = 'SANDBOX';
const SYSTEM_ACCOUNTS: AccountKind[] = ['PROVIDER_SETTLEMENT', 'SUSPENSE_HOLDING', 'FEE_INCOME', 'DISMISSED'];

export interface NewDeveloper {
  developer_id: string;
  business_name: string;
  api_key: string;
  created_at: string;
}

/**
 * Creates a developer account with its system ledger accounts, webhook secret and first test key
 * (`apiKey` when given: `sandbox start --api-key`).
 * @example const { developer_id, api_key } = await createDeveloper(trx, env, 'Acme Pay');
 */
export async function createDeveloper(trx: Trx, caller: EngineEnv, businessName: string, apiKey?: string): Promise<NewDeveloper> {
  const id = caller.ids.uuid();
  // The new developer's own clock (a fresh one starts at real time) stamps what it owns.
  const env = envOf(caller, id);
  const now = env.clock.now().toISOString();
  await trx
    .insertInto('developers')
    .values({
      id,
      seq: sql<number>`(SELECT coalesce(max(seq), 0) + 1 FROM developers)`,
      business_name: businessName,
      webhook_url: null,
      webhook_secret: newWebhookSecret(env),
      webhook_secret_previous: null,
      webhook_secret_previous_until: null,
      created_at: now,
    })
    .execute();
  for (const kind of SYSTEM_ACCOUNTS) {
    await insertAccount(trx, { id: env.ids.uuid(), developer_id: id, kind, created_at: now });
  }
  const key = await issueKey(trx, env, id, apiKey);
  return { developer_id: id, business_name: businessName, api_key: key, created_at: now };
}

export async function findDeveloper(trx: Trx, id: string) {
  return trx.selectFrom('developers').selectAll().where('id', '=', id).executeTakeFirst();
}
