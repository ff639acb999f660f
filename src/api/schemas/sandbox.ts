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

export const InstructionRule = z
  .object({
    kind: z
      .enum([
        'hold_all',
        'hold_above',
        'hold_below',
        'only_purposes',
        'never_purposes',
        'only_senders',
        'never_senders',
        'require_pattern',
        'expect',
      ])
      .describe(
        'what the rule holds: every payment, amounts past a limit, purposes, senders, a missing reference; expect holds nothing',
      ),
    action: z
      .enum(['review', 'reject', 'expect'])
      .describe('review → REVIEW_REQUESTED_BY_PROMPT, reject → REJECTED_BY_PROMPT, expect: confidence only'),
    text: z.string().describe('the part of the system_prompt the rule was read from'),
    amount: z
      .number()
      .int()
      .optional()
      .describe('kobo: hold_above holds amounts above it (from it when inclusive), hold_below those below'),
    inclusive: z.boolean().optional(),
    purposes: z
      .array(z.string())
      .optional()
      .describe('the intents the rule is about; for a limit, the only intents it limits'),
    words: z.array(z.string()).optional().describe('words besides the purposes that the rule is about'),
    senders: z.array(z.string()).optional(),
    pattern: z.string().optional().describe('require_pattern: a reference prefix, then a separator and digits'),
    only: z
      .boolean()
      .optional()
      .describe('expect: the prompt expects these only; another stated purpose loses confidence'),
  })
  .meta({ id: 'InstructionRule' });

export const Instruction = z
  .object({
    rules: z.array(InstructionRule),
    not_understood: z
      .array(z.string())
      .describe('sentences or clauses of the prompt read as no rule: they hold nothing, and the explanation says so'),
  })
  .meta({ id: 'Instruction' });
export type Instruction = z.infer<typeof Instruction>;
export type InstructionRule = z.infer<typeof InstructionRule>;

/** A prompt to read into rules: given, or a wallet's own. */
export const InstructionBody = AnalyseBody.pick({ system_prompt: true, wallet_id: true });

export const AnalysisPreview = z
  .object({
    service_intelligence: ServiceIntelligence,
    instruction: Instruction.describe('the rules the prompt was read into'),
    outcome: z.enum(['CREDITED', 'SUSPENDED']).describe('where an inbound payment with this narration would go'),
    suspense_reason: z.enum(['WALLET_CLOSED', 'AI_LOW_CONFIDENCE', 'AI_RISK_FLAG']).nullable(),
    suspense_status: z.enum(['PENDING', 'FLAGGED']).nullable(),
    analyser: z.string().describe('which analyser answered: rules, or openai-compatible (model)'),
  })
  .meta({ id: 'AnalysisPreview' });
