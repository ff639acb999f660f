import {
  AgentListQuery,
  AgentPageResponse,
  AgentParams,
  AgentResponse,
  AgentRunPageResponse,
  CreateAgentBody,
  ToggleBody,
} from '../../api/schemas/agents.js';
import { IdempotencyHeaders, pageQuery } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import { WalletParams } from '../../api/schemas/wallets.js';
import { createAgent, listAgents, listRuns, toggleAgent } from '../../engine/agents/agents.service.js';
import { z } from 'zod';
import { toAgent, toAgentRun, toPage } from '../serialize.js';
import { type App, type RouteDeps, commit, ok } from './route.js';

const tags = ['Agents'];

export function agentRoutes(app: App, { sandbox }: RouteDeps): void {
  app.post(
    '/v1/wallets/:wallet_id/agents',
    {
      schema: {
        tags,
        summary: 'Create an agent: a trigger-action rule on the wallet',
        headers: IdempotencyHeaders,
        params: WalletParams,
        body: CreateAgentBody,
        response: { 201: AgentResponse, ...errors(409) },
      },
    },
    async (request, reply) =>
      commit(
        request,
        reply,
        sandbox,
        (trx) => createAgent(trx, request.env, request.developerId, request.params.wallet_id, request.body),
        toAgent,
        201,
      ),
  );

  app.patch(
    '/v1/wallets/:wallet_id/agents/:agent_id/toggle',
    {
      schema: {
        tags,
        summary: 'Enable or disable an agent (an agent of a closed wallet is not enabled: 409)',
        params: AgentParams,
        body: ToggleBody,
        response: { 200: AgentResponse, ...errors(409) },
      },
    },
    async (request) =>
      ok(
        toAgent(
          await sandbox.write(
            (trx) =>
              toggleAgent(
                trx,
                request.developerId,
                request.params.wallet_id,
                request.params.agent_id,
                request.body.is_active,
              ),
            request.developerId,
          ),
        ),
      ),
  );

  app.get(
    '/v1/agents',
    {
      schema: {
        tags,
        summary: 'List agents across wallets (filter wallet_id)',
        querystring: AgentListQuery,
        response: { 200: AgentPageResponse },
      },
    },
    async (request) => ok(toPage(await listAgents(sandbox.db, request.developerId, request.query), toAgent)),
  );

  app.get(
    '/sandbox/agents/:agent_id/runs',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Every firing of an agent: when, why, what it did, and the transaction or error',
        params: z.object({ agent_id: z.string() }),
        querystring: z.strictObject({ ...pageQuery }),
        response: { 200: AgentRunPageResponse },
      },
    },
    async (request) =>
      ok(toPage(await listRuns(sandbox.db, request.developerId, request.params.agent_id, request.query), toAgentRun)),
  );
}
