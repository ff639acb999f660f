import { z } from 'zod';
import { ACTION_NEEDS, TRIGGER_NEEDS_THRESHOLD } from '../../engine/agents/agents.service.js';
import { Amount, Kobo, koboIntegerError, MAX_AMOUNT, Ok, Page, pageQuery, text, Timestamp } from './common.js';

export const TRIGGERS = ['BALANCE_ABOVE', 'BALANCE_BELOW', 'ON_CREDIT', 'ON_CREDIT_AMOUNT_ABOVE'] as const;
export const ACTIONS = ['SWEEP', 'PARTIAL_SWEEP', 'WEBHOOK_NOTIFY', 'LOCK_WALLET'] as const;

export const Agent = z
  .object({
    id: z.string(),
    wallet_id: z.string(),
    developer_id: z.string(),
    name: z.string(),
    trigger: z.enum(TRIGGERS),
    threshold: Kobo.nullable(),
    action: z.enum(ACTIONS),
    destination_wallet_id: z.string().nullable(),
    sweep_amount: Kobo.nullable(),
    is_active: z.boolean(),
    trigger_count: z.int(),
    last_triggered_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof Agent>;

const threshold = z
  .number({ error: 'must be an integer number of kobo' })
  .int({ error: koboIntegerError('must be an integer number of kobo') })
  .min(0, { error: 'must be 0 or more' })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT} kobo` });

export const CreateAgentBody = z
  .strictObject({
    name: text(100),
    trigger: z.enum(TRIGGERS, { error: `must be one of ${TRIGGERS.join(', ')}` }),
    threshold: threshold.optional(),
    action: z.enum(ACTIONS, { error: `must be one of ${ACTIONS.join(', ')}` }),
    destination_wallet_id: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
    sweep_amount: Amount.optional(),
  })
  .superRefine((body, ctx) => {
    const need = (field: string, required: boolean, present: boolean, by: string) => {
      if (required && !present) ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${by}` });
      if (!required && present) ctx.addIssue({ code: 'custom', path: [field], message: `is not used by ${by}` });
    };
    need('threshold', TRIGGER_NEEDS_THRESHOLD[body.trigger], body.threshold !== undefined, body.trigger);
    need(
      'destination_wallet_id',
      ACTION_NEEDS[body.action].destination,
      body.destination_wallet_id !== undefined,
      body.action,
    );
    need('sweep_amount', ACTION_NEEDS[body.action].sweepAmount, body.sweep_amount !== undefined, body.action);
  });

export const AgentParams = z.object({ wallet_id: z.string(), agent_id: z.string() });
export const ToggleBody = z.strictObject({ is_active: z.boolean({ error: 'must be true or false' }) });
export const AgentListQuery = z.strictObject({ ...pageQuery, wallet_id: z.string().optional() });

export const AgentRun = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    wallet_id: z.string(),
    outcome: z.enum(['DONE', 'FAILED', 'SKIPPED']),
    reason: z.string().describe('why the trigger fired'),
    effect: z.string().describe('what the action did'),
    transaction_id: z.string().nullable().describe('the DEBIT of a sweep'),
    error: z.string().nullable(),
    cause_transaction_id: z.string(),
    origin_transaction_id: z.string(),
    hop: z.int(),
    balance: Kobo.describe('the wallet balance after the run'),
    created_at: Timestamp,
  })
  .meta({ id: 'AgentRun' });

export const AgentResponse = Ok(Agent);
export const AgentPageResponse = Ok(Page(Agent));
export const AgentRunPageResponse = Ok(Page(AgentRun));
