import { IdempotencyHeaders, Ok } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import { InboundBody, InboundOutcome } from '../../api/schemas/sandbox.js';
import {
  PatchWalletBody,
  WalletListQuery,
  WalletPageResponse,
  WalletParams,
  WalletResponse,
} from '../../api/schemas/wallets.js';
import { analyseInbound, receiveInbound } from '../../engine/inbound/inbound.service.js';
import { listWallets } from '../../engine/wallets/wallets.repository.js';
import { setTransfersOut } from '../../engine/wallets/wallets.service.js';
import { toInboundOutcome, toPage, toWallet } from '../serialize.js';
import { type App, type RouteDeps, commit, ok } from './route.js';

const tags = ['Sandbox'];

/** Wallet inspection and the simulated provider's inbound notifications. */
export function sandboxWalletRoutes(app: App, { sandbox }: RouteDeps): void {
  app.get(
    '/sandbox/wallets',
    {
      schema: {
        tags,
        summary: "List the developer's wallets (filters status, customer_reference)",
        querystring: WalletListQuery,
        response: { 200: WalletPageResponse },
      },
    },
    async (request) => ok(toPage(await listWallets(sandbox.db, request.developerId, request.query), toWallet)),
  );

  app.patch(
    '/sandbox/wallets/:wallet_id',
    {
      schema: {
        tags,
        summary: 'Set allow_transfers_out (unlock a wallet that LOCK_WALLET locked)',
        params: WalletParams,
        body: PatchWalletBody,
        response: { 200: WalletResponse, ...errors(409) },
      },
    },
    async (request) =>
      ok(
        toWallet(
          await sandbox.write(
            (trx) =>
              setTransfersOut(trx, request.developerId, request.params.wallet_id, request.body.allow_transfers_out),
            request.developerId,
          ),
        ),
      ),
  );

  app.post(
    '/sandbox/inbound-transfers',
    {
      schema: {
        tags,
        summary: 'Simulate a bank transfer arriving at a virtual account; idempotent on provider_reference',
        headers: IdempotencyHeaders,
        body: InboundBody,
        response: { 200: Ok(InboundOutcome), ...errors(404, 409) },
      },
    },
    async (request, reply) => {
      const { env } = request;
      // A model-backed analyser is asked before the write, so no transaction waits on the network.
      const analysis = env.analyser?.remote
        ? await analyseInbound(sandbox.db, env, request.developerId, request.body)
        : undefined;
      return commit(
        request,
        reply,
        sandbox,
        (trx) => receiveInbound(trx, env, request.developerId, request.body, analysis),
        toInboundOutcome,
      );
    },
  );
}
