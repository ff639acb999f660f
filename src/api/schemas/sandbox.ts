import { z } from 'zod';
import { AccountNumber, Amount, BankCode, Ok, Timestamp, nameText, optionalText, text } from './common.js';
import { SuspenseItem } from './suspense.js';
import { ServiceIntelligence, Transaction } from './transactions.js';

export const Health = Ok(
  z.object({
    status: z.literal('ok'),
    version: z.string(),
    api_version: z.string(),
    backend: z
      .enum(['sqlite', 'postgres'])
      .describe(
        'where the data lives: a SQLite file (or memory), or a PostgreSQL database that several servers may share',
      ),
    server_id: z
      .string()
      .describe('a random id this server made when it started: servers that share one database each have their own'),
    database: z
      .string()
      .describe("the database: a file path, ':memory:', or a postgres:// URL with its password shown as ***"),
    lease_seconds: z
      .number()
      .optional()
      .describe(
        'where several servers share one database: ' +
          'how long (on the developer clock) a begun webhook attempt holds its delivery, ' +
          'so no other server sends it meanwhile',
      ),
    deliveries_leased_by_this_server: z
      .number()
      .int()
      .optional()
      .describe(
        'where several servers share one database: webhook attempts this server has out now, each holding its delivery',
      ),
  }),
);

export const ClockState = z
  .object({
    now: Timestamp,
    offset_seconds: z
      .number()
      .describe('how far the sandbox clock is ahead of real time (of --clock-start, on a manual clock)'),
  })
  .meta({ id: 'Clock' });
export type ClockState = z.infer<typeof ClockState>;

export const ClockAdvanceBody = z.strictObject({
  seconds: z
    .number({ error: 'must be a number of seconds' })
    // The clock keeps whole milliseconds (decisions: Tenancy, clocks and reset): a step under one
    // would move it by nothing, or by a fraction it cannot show.
    .min(0.001, {
      error: 'must be at least 0.001 (one millisecond): the clock only moves forward, in whole milliseconds',
    })
    .max(10 * 365 * 24 * 3600, { error: 'must be at most ten years' }),
});

export const DeveloperBody = z.strictObject({ business_name: nameText(100) });

export const NewDeveloper = z
  .object({ developer_id: z.string(), business_name: z.string(), api_key: z.string(), created_at: Timestamp })
  .meta({ id: 'NewDeveloper' });

export const KeyInfo = z
  .object({
    developer_id: z.string(),
    business_name: z.string(),
    key_hint: z.string().describe('the start and end of the current key; the key itself is stored only as a hash'),
    key_created_at: Timestamp,
  })
  .meta({ id: 'KeyInfo' });

export const RotatedKey = z
  .object({ developer_id: z.string(), api_key: z.string(), created_at: Timestamp })
  .meta({ id: 'RotatedKey' });

export const InboundBody = z.strictObject({
  account_number: AccountNumber,
  amount: Amount,
  sender_name: text(100).optional(),
  sender_account: AccountNumber.optional(),
  sender_bank_code: BankCode.optional(),
  narration: optionalText(100),
  provider_reference: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(100, { error: 'must be at most 100 characters' })
    .optional(),
});

export const InboundOutcome = z
  .object({
    outcome: z.enum(['CREDITED', 'SUSPENDED']),
    transaction: Transaction.optional(),
    suspense_item: SuspenseItem.optional(),
  })
  .meta({ id: 'InboundOutcome' });

export const AuditReport = z
  .object({
    ok: z.boolean(),
    checked: z.record(z.string(), z.int()),
    problems: z.array(z.object({ check: z.string(), message: z.string(), id: z.string().optional() })),
  })
  .meta({ id: 'AuditReport' });
export type AuditReport = z.infer<typeof AuditReport>;

export const ResetResult = z.object({ reset: z.literal(true), removed: z.record(z.string(), z.int()) });

export const AnalyseBody = z.strictObject({
  narration: z
    .string({ error: 'must be a string' })
    .max(100, { error: 'must be at most 100 characters' })
    .describe('the narration to read (may be empty)'),
  system_prompt: optionalText(2000).describe("a wallet's guidance to read it against"),
  wallet_id: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .optional()
    .describe("read it against this wallet's system_prompt and status instead"),
  amount: Amount.optional().describe('kobo (default 100000); prompts can set limits on amounts'),
  sender_name: text(100).optional(),
});

export const AnalysisPreview = z
  .object({
    service_intelligence: ServiceIntelligence,
    outcome: z.enum(['CREDITED', 'SUSPENDED']).describe('where an inbound payment with this narration would go'),
    suspense_reason: z.enum(['WALLET_CLOSED', 'AI_LOW_CONFIDENCE', 'AI_RISK_FLAG']).nullable(),
    suspense_status: z.enum(['PENDING', 'FLAGGED']).nullable(),
    analyser: z.string().describe('which analyser answered: rules, or openai-compatible (model)'),
  })
  .meta({ id: 'AnalysisPreview' });
