import { type Kysely, type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from 'kysely';
import { core } from './0001-core.js';
import { payouts } from './0002-payouts.js';
import { suspenseResolution } from './0003-suspense-resolution.js';
import { webhooks } from './0004-webhooks.js';
import { agents } from './0005-agents.js';
import { transactionListing } from './0006-transaction-listing.js';
import { dueDeliveriesInOrder } from './0007-due-deliveries-in-order.js';
import { developerClocks } from './0008-developer-clocks.js';
import { pendingPayoutsByWallet } from './0010-pending-payouts-by-wallet.js';
import { analysisCache } from './0011-analysis-cache.js';
import { leanWebhookStorage } from './0014-lean-webhook-storage.js';
import { leanLedgerRows } from './0015-lean-ledger-rows.js';
import { ledgerKeysBySeq } from './0016a-ledger-keys-by-seq.js';
import { webhookKeysBySeq } from './0016b-webhook-keys-by-seq.js';
import { transactionsUpdatedOnlyWhenChanged } from './0016c-transactions-updated-only-when-changed.js';
import { ledgerAccountsBySeq } from './0019a-ledger-accounts-by-seq.js';
import { ledgerTimesAsIntegers } from './0019b-ledger-times-as-integers.js';
import { webhookRowsByNumber } from './0020-webhook-rows-by-number.js';
import { webhookIdsAsBytes } from './0020b-webhook-ids-as-bytes.js';
import { analysisCachePerDeveloper } from './0021-analysis-cache-per-developer.js';
import { reportPeriods } from './0022-report-periods.js';
import { transactionsByTime } from './0023-transactions-by-time.js';
import { suspenseNotes } from './0024-suspense-notes.js';
import { requestLog } from './0025-request-log.js';

/**
 * Every migration, in the order they run, on SQLite and on PostgreSQL alike. The names are the rows of
 * `kysely_migration` in every database and snapshot made so far: never rename one, never edit one that
 * has shipped; add the next (docs/storage.md, "Migrations").
 */
const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_payouts': payouts,
  '0003_suspense_resolution': suspenseResolution,
  '0004_webhooks': webhooks,
  '0005_agents': agents,
  '0006_transaction_listing': transactionListing,
  '0007_due_deliveries_in_order': dueDeliveriesInOrder,
  '0008_developer_clocks': developerClocks,
  '0010_pending_payouts_by_wallet': pendingPayoutsByWallet,
  '0011_analysis_cache': analysisCache,
  '0014_lean_webhook_storage': leanWebhookStorage,
  '0015_lean_ledger_rows': leanLedgerRows,
  '0016a_ledger_keys_by_seq': ledgerKeysBySeq,
  '0016b_webhook_keys_by_seq': webhookKeysBySeq,
  '0016c_transactions_updated_only_when_changed': transactionsUpdatedOnlyWhenChanged,
  '0019a_ledger_accounts_by_seq': ledgerAccountsBySeq,
  '0019b_ledger_times_as_integers': ledgerTimesAsIntegers,
  '0020_webhook_rows_by_number': webhookRowsByNumber,
  '0020b_webhook_ids_as_bytes': webhookIdsAsBytes,
  '0021_analysis_cache_per_developer': analysisCachePerDeveloper,
  '0022_report_periods': reportPeriods,
  '0023_transactions_by_time': transactionsByTime,
  '0024_suspense_notes': suspenseNotes,
  '0025_request_log': requestLog,
};

/**
 * Migration names compared code unit by code unit, as Kysely sorts the migrations themselves: its
 * default (`localeCompare`) loads ICU's collation on its first call, 5 to 15 ms of every start.
 */
export const migrationOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/**
 * Brings `db` (SQLite or PostgreSQL) to this version's schema, and says which migrations ran. On
 * PostgreSQL the migrator holds an advisory lock and runs in one transaction, so servers that start
 * together on one database migrate it once. Throws naming the migration that failed.
 * @example await migrateToLatest(db);
 */
export async function migrateToLatest(db: Kysely<any>): Promise<NonNullable<MigrationResultSet['results']>> {
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider,
    nameComparator: migrationOrder,
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    // The driver's error stays as the cause: a server that cannot be reached is not a broken migration.
    throw new Error(`database migration ${failed} failed: ${String(error)}`, { cause: error });
  }
  return results ?? [];
}
