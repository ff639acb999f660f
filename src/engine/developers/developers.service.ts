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
export async function createDeveloper(
  trx: Trx,
  caller: EngineEnv,
  businessName: string,
  apiKey?: string,
): Promise<NewDeveloper> {
  const id = caller.ids.uuid();
  // The new developer's own clock (a fresh one starts at real time) stamps what it owns.
  const env = envOf(caller, id);
  const now = env.clock.now().toISOString();
  const seq = await nextDeveloperSeq(trx);
  await trx
    .insertInto('developers')
    .values({
      id,
      seq,
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

/** The settings row that counts developers: the last `seq` handed out. */
const DEVELOPER_SEQ = 'developer_seq';

/**
 * The next developer number, from a counter row taken with one upsert: on a backend with several
 * writers at once (PostgreSQL, several servers) the row's lock makes two creations wait for each
 * other instead of both reading the same `max(seq)`. A database without the row yet (made before
 * it, or restored from such a snapshot) starts it from the developers it has.
 */
async function nextDeveloperSeq(trx: Trx): Promise<number> {
  const row = await trx
    .insertInto('settings')
    .values({
      key: DEVELOPER_SEQ,
      value: sql<string>`CAST((SELECT coalesce(max(seq), 0) + 1 FROM developers) AS TEXT)`,
    })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value: sql<string>`CAST(CAST(settings.value AS INTEGER) + 1 AS TEXT)` }),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

export async function findDeveloper(trx: Trx, id: string) {
  return trx.selectFrom('developers').selectAll().where('id', '=', id).executeTakeFirst();
}
