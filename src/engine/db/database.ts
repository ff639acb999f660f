import type { Kysely, Transaction } from 'kysely';
import type { AgentRunTable, AgentTable } from '../agents/agents.table.js';
import type { ApiKeyTable, DeveloperTable } from '../developers/developers.table.js';
import type {
  EventTable,
  ReceiverEventCountTable,
  ReceiverEventTable,
  WebhookAttemptTable,
  WebhookLogCountTable,
  WebhookLogTable,
  WebhookUrlTable,
} from '../events/events.table.js';
import type { IdempotencyKeyTable } from '../idempotency/idempotency.table.js';
import type { InboundTransferTable } from '../inbound/inbound.table.js';
import type { AnalysisCacheTable } from '../intelligence/analysis-cache.table.js';
import type {
  AccountTable,
  EntryTable,
  PostingTable,
  TransactionCountTable,
  TransactionTable,
} from '../ledger/ledger.table.js';
import type { PayoutTable } from '../payouts/payouts.table.js';
import type { RequestCounterTable, RequestLogTable } from '../requests/requests.table.js';
import type { SettingTable } from '../settings/settings.table.js';
import type { SuspenseItemTable, SuspenseNoteTable } from '../suspense/suspense.table.js';
import type { WalletTable } from '../wallets/wallets.table.js';

export interface Database {
  developers: DeveloperTable;
  api_keys: ApiKeyTable;
  accounts: AccountTable;
  wallets: WalletTable;
  postings: PostingTable;
  entries: EntryTable;
  transactions: TransactionTable;
  events: EventTable;
  webhook_logs: WebhookLogTable;
  suspense_items: SuspenseItemTable;
  suspense_notes: SuspenseNoteTable;
  request_log: RequestLogTable;
  request_counters: RequestCounterTable;
  inbound_transfers: InboundTransferTable;
  idempotency_keys: IdempotencyKeyTable;
  settings: SettingTable;
  payouts: PayoutTable;
  webhook_attempts: WebhookAttemptTable;
  webhook_urls: WebhookUrlTable;
  receiver_events: ReceiverEventTable;
  agents: AgentTable;
  agent_runs: AgentRunTable;
  transaction_counts: TransactionCountTable;
  webhook_log_counts: WebhookLogCountTable;
  receiver_event_counts: ReceiverEventCountTable;
  analysis_cache: AnalysisCacheTable;
}

export type Db = Kysely<Database>;
/** A database handle inside a transaction, or the database itself for single statements. */
export type Trx = Kysely<Database> | Transaction<Database>;
