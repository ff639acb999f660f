import { IdempotencyHeaders } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import {
  TransactionListQuery,
  TransactionPageResponse,
  TransferBody,
  TransferResponse,
} from '../../api/schemas/transactions.js';
import { CreateWalletBody, WalletParams, WalletResponse } from '../../api/schemas/wallets.js';
import { listWalletTransactions } from '../../engine/ledger/transactions.repository.js';
import { transfer } from '../../engine/transfers/transfers.service.js';
import { closeWallet, createWallet, getWallet } from '../../engine/wallets/wallets.service.js';
import { toPage, toTransaction, toWallet } from '../serialize.js';
import { type App, type RouteDeps, commit, inTransaction, ok } from './route.js';
import { listFilters } from './list-filters.js';

const tags = ['Wallets'];

export function walletRoutes(app: App, { sandbox }: RouteDeps): void {
  app.post(
    '/v1/wallets',
    {
      schema: {
        tags,
        summary: 'Create wallet: provisions a virtual NUBAN and an ACTIVE wallet with balance 0',
        headers: IdempotencyHeaders,
        body: CreateWalletBody,
        response: { 201: WalletResponse, ...errors(409) },
      },
    },
    async (request, reply) =>
      commit(
        request,
        reply,
        sandbox,
        (trx) => createWallet(trx, request.env, request.developerId, request.body),
        toWallet,
        201,
      ),
  );

  app.get(
    '/v1/wallets/:wallet_id',
    { schema: { tags, summary: 'Get wallet', params: WalletParams, response: { 200: WalletResponse } } },
    async (request) => ok(toWallet(await getWallet(sandbox.db, request.developerId, request.params.wallet_id))),
  );

  app.post(
    '/v1/wallets/:wallet_id/close',
    {
      schema: {
        tags,
        summary: 'Close wallet: keeps its balance; later inbound transfers go to suspense',
        headers: IdempotencyHeaders,
        params: WalletParams,
        response: { 200: WalletResponse, ...errors(409) },
      },
    },
    async (request, reply) =>
      commit(
        request,
        reply,
        sandbox,
        (trx) => closeWallet(trx, request.env, request.developerId, request.params.wallet_id),
        toWallet,
      ),
  );

  app.post(
    '/v1/wallets/:wallet_id/transfer',
    {
      schema: {
        tags,
        summary:
          'Transfer funds to another of your wallets (internal, instant, no fee) or to a bank account (external)',
        headers: IdempotencyHeaders,
        params: WalletParams,
        body: TransferBody,
        response: { 200: TransferResponse, ...errors(403, 409, 422) },
      },
    },
    async (request, reply) =>
      commit(
        request,
        reply,
        sandbox,
        (trx) => transfer(trx, request.env, request.developerId, request.params.wallet_id, request.body),
        (result) => result,
      ),
  );

  app.get(
    '/v1/wallets/:wallet_id/transactions',
    {
      schema: {
        tags,
        summary:
          'List wallet transactions, oldest first (order=desc for newest first); suspense items are not included',
        params: WalletParams,
        querystring: TransactionListQuery,
        response: { 200: TransactionPageResponse },
      },
    },
    async (request) => {
      const page = await inTransaction(sandbox, async (trx) => {
        const wallet = await getWallet(trx, request.developerId, request.params.wallet_id);
        return listWalletTransactions(trx, wallet.id, listFilters(request.query));
      });
      return ok(toPage(page, toTransaction));
    },
  );
}
