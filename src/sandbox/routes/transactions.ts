import { TransactionParams, TransactionResponse } from '../../api/schemas/transactions.js';
import { notFound } from '../../engine/errors.js';
import { findTransaction } from '../../engine/ledger/transactions.repository.js';
import { toTransaction } from '../serialize.js';
import { type App, type RouteDeps, ok } from './route.js';

export function transactionRoutes(app: App, { sandbox }: RouteDeps): void {
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
