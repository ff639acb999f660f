import {
  AllTransactionsQuery,
  TransactionPageResponse,
  TransactionParams,
  TransactionResponse,
} from '../../api/schemas/transactions.js';
import { notFound } from '../../engine/errors.js';
import { findTransaction, listDeveloperTransactions } from '../../engine/ledger/transactions.repository.js';
import { toPage, toTransaction } from '../serialize.js';
import { listFilters } from './list-filters.js';
import { type App, type RouteDeps, EXTENSION, inTransaction, ok } from './route.js';

export function transactionRoutes(app: App, { sandbox }: RouteDeps): void {
  app.get(
    '/v1/transactions',
    {
      schema: {
        tags: ['Transactions'],
        summary:
          'List the transactions of all your wallets, oldest first, ' +
          'with the filters of one wallet’s list and wallet_id, ' +
          'customer_reference (an addition of this service)',
        ...EXTENSION,
        querystring: AllTransactionsQuery,
        response: { 200: TransactionPageResponse },
      },
    },
    async (request) =>
      ok(
        toPage(
          await inTransaction(sandbox, (trx) =>
            listDeveloperTransactions(trx, request.developerId, listFilters(request.query)),
          ),
          toTransaction,
        ),
      ),
  );

  app.get(
    '/v1/transactions/:tx_id',
    {
      schema: {
        tags: ['Transactions'],
        summary: 'Get transaction, including service_intelligence',
        params: TransactionParams,
        response: { 200: TransactionResponse },
      },
    },
    async (request) => {
      const row = await findTransaction(sandbox.db, request.developerId, request.params.tx_id);
      if (!row) throw notFound('transaction');
      return ok(toTransaction(row));
    },
  );
}
