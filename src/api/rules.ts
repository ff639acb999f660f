import { z } from 'zod';
import { CreateAgentBody, AgentListQuery } from './schemas/agents.js';
import { ResolveBody } from './schemas/banks.js';
import { IdempotencyHeaders, pageQuery } from './schemas/common.js';
import { AnalyseBody, ClockAdvanceBody, DeveloperBody, InboundBody } from './schemas/sandbox.js';
import { RequestLogQuery } from './schemas/requests.js';
import { SearchQuery } from './schemas/search.js';
import { RestoreFileBody, SaveSnapshotBody } from './schemas/snapshots.js';
import { ResolveSuspenseBody, SuspenseListQuery, SuspenseNoteBody } from './schemas/suspense-requests.js';
import { AllTransactionsQuery, TransactionListQuery, TransferBody } from './schemas/transactions.js';
import { CreateWalletBody, WalletListQuery } from './schemas/wallets.js';
import {
  PutEndpointBody,
  ReceiverBehaviourBody,
  ReceiverEventsQuery,
  WebhookLogListQuery,
} from './schemas/webhooks.js';

/**
 * The request rules of src/api/schemas as plain data, for the command line: it checks its flags
 * against them before sending anything (exit 2), without loading zod. The data is derived from the
 * zod schemas themselves (their JSON Schema, plus probes for what JSON Schema cannot say: trimming,
 * the messages, and which fields one enum value requires or refuses), so there is one set of rules.
 * `npm run build` writes the result into dist/client/rules.generated.js.
 */

/** The requests the command line sends, by the name of their zod schema. */
const REQUESTS = {
  SearchQuery,
  CreateWalletBody,
  TransferBody,
  InboundBody,
  CreateAgentBody,
  ResolveSuspenseBody,
  SuspenseNoteBody,
  ResolveBody,
  PutEndpointBody,
  ClockAdvanceBody,
  DeveloperBody,
  ReceiverBehaviourBody,
  AnalyseBody,
  SaveSnapshotBody,
  RestoreFileBody,
  IdempotencyHeaders: z.strictObject({ 'idempotency-key': IdempotencyHeaders.shape['idempotency-key'] }),
  WalletListQuery,
  TransactionListQuery,
  AllTransactionsQuery,
  AgentListQuery,
  SuspenseListQuery,
  WebhookLogListQuery,
  ReceiverEventsQuery,
  RequestLogQuery,
  PageQuery: z.strictObject({ ...pageQuery }),
};
export type RequestName = keyof typeof REQUESTS;

export type RuleName =
  'type' | 'empty' | 'minLength' | 'maxLength' | 'pattern' | 'url' | 'enum' | 'integer' | 'minimum' | 'maximum';

export interface FieldRule {
  type: 'string' | 'integer' | 'number' | 'boolean';
  optional: boolean;
  nullable?: boolean;
  /** Surrounding spaces are removed before the length rules apply. */
  trim?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Protocols a URL may have (the field is a URL). */
  protocols?: string[];
  enum?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  /** The schema's own message for each rule the field has. */
  messages: Partial<Record<RuleName, string>>;
}

/** `field` is required (or refused, when `required` is false) when `when` has the value `is`. */
export interface Conditional {
  when: string;
  is: string;
  field: string;
  required: boolean;
  message: string;
}

export interface SchemaRules {
  fields: Record<string, FieldRule>;
  conditionals: Conditional[];
}

export type Rules = Record<RequestName, SchemaRules>;

type JsonSchema = {
  type?: string;
  anyOf?: JsonSchema[];
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** The message zod gives for the first of `values` that the schema refuses. */
function messageFor(schema: z.ZodType, values: unknown[]): string | undefined {
  for (const value of values) {
    const result = schema.safeParse(value);
    if (!result.success) return result.error.issues[0]!.message;
  }
  return undefined;
}

const SAMPLES: unknown[] = ['0000000000', '035', 'x', 'ada@example.com', 'http://127.0.0.1:3000/hooks', 1, true];

function fieldRule(schema: z.ZodType, json: JsonSchema, optional: boolean): FieldRule {
  const nonNull = json.anyOf?.find((s) => s.type !== 'null') ?? json;
  const nullable = Boolean(json.anyOf?.some((s) => s.type === 'null'));
  const type = (nonNull.enum ? 'string' : nonNull.type) as FieldRule['type'];
  const rule: FieldRule = { type, optional, messages: {} };
  if (nullable) rule.nullable = true;
  const set = <K extends keyof FieldRule>(key: K, value: FieldRule[K] | undefined) => {
    if (value !== undefined) rule[key] = value;
  };
  // zod's generic texts ("Invalid input: …") say nothing a person can act on: the CLI words those itself.
  const say = (name: RuleName, values: unknown[]) => {
    const message = messageFor(schema, values);
    if (message && !message.startsWith('Invalid ')) rule.messages[name] = message;
  };
  // Query parameters arrive as text: probe them in the form the schema reads.
  const asNumber = (n: number) => (schema.safeParse('1').success ? String(n) : n);
  say('type', type === 'boolean' ? ['yes'] : type === 'string' ? [12] : ['twelve']);
  if (nonNull.enum) {
    set('enum', nonNull.enum);
    say('enum', ['NOT_ONE_OF_THESE']);
  }
  if (type === 'string') {
    if (schema.safeParse(' x ').data === 'x') rule.trim = true;
    set('minLength', nonNull.minLength);
    set('maxLength', nonNull.maxLength);
    set('pattern', nonNull.pattern);
    if (nonNull.minLength) say('empty', rule.trim ? ['  ', ''] : ['']);
    if (nonNull.minLength && nonNull.minLength > 1) say('minLength', ['x'.repeat(nonNull.minLength - 1)]);
    if (nonNull.maxLength !== undefined) say('maxLength', ['x'.repeat(nonNull.maxLength + 1)]);
    // A name's pattern takes '!' and refuses control and bidirectional formatting characters.
    if (nonNull.pattern) say('pattern', ['!', '\u001b', '\u202e']);
    if (nonNull.format === 'uri') {
      rule.protocols = ['http', 'https', 'ftp', 'ws', 'file'].filter(
        (p) => schema.safeParse(`${p}://127.0.0.1/x`).success,
      );
      say('url', ['not a url']);
    }
  }
  if (type === 'integer' || type === 'number') {
    set('minimum', nonNull.minimum);
    set('maximum', nonNull.maximum);
    set('exclusiveMinimum', nonNull.exclusiveMinimum);
    if (type === 'integer') say('integer', [asNumber(1.5)]);
    if (nonNull.minimum !== undefined) say('minimum', [asNumber(nonNull.minimum - 1)]);
    if (nonNull.exclusiveMinimum !== undefined) say('minimum', [asNumber(nonNull.exclusiveMinimum)]);
    if (nonNull.maximum !== undefined && nonNull.maximum < Number.MAX_SAFE_INTEGER)
      say('maximum', [asNumber(nonNull.maximum + 1)]);
  }
  return rule;
}

/** Which optional fields an enum value requires or refuses (the schemas' superRefine rules), found by trying each value. */
function conditionals(object: z.ZodObject, fields: Record<string, FieldRule>): Conditional[] {
  const sample = (name: string) => SAMPLES.find((value) => object.shape[name]!.safeParse(value).success);
  const base: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(fields)) if (!rule.optional) base[name] = rule.enum?.[0] ?? sample(name);
  const issueAt = (body: Record<string, unknown>, field: string) =>
    object.safeParse(body).error?.issues.find((i) => i.path[0] === field)?.message;
  const found: Conditional[] = [];
  for (const [when, rule] of Object.entries(fields)) {
    if (!rule.enum) continue;
    for (const [field, other] of Object.entries(fields)) {
      if (field === when || !other.optional) continue;
      for (const present of [false, true]) {
        const outcomes = rule.enum.map((is) => {
          const body = { ...base, [when]: is };
          if (present) body[field] = sample(field);
          else delete body[field];
          return { is, message: issueAt(body, field) };
        });
        // Only a rule that changes with this enum's value belongs to it.
        if (outcomes.every((o) => o.message === outcomes[0]!.message)) continue;
        for (const o of outcomes)
          if (o.message) found.push({ when, is: o.is, field, required: !present, message: o.message });
      }
    }
  }
  return found;
}

export function rulesOf(object: z.ZodObject): SchemaRules {
  const json = z.toJSONSchema(object, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(json.required ?? []);
  const fields: Record<string, FieldRule> = {};
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    fields[name] = fieldRule(
      object.shape[name] as z.ZodType,
      property,
      !required.has(name) || property.default !== undefined,
    );
  }
  return { fields, conditionals: conditionals(object, fields) };
}

/** Every request's rules. @example requestRules().TransferBody.fields.narration.maxLength // 100 */
export function requestRules(): Rules {
  return Object.fromEntries(
    Object.entries(REQUESTS).map(([name, schema]) => [name, rulesOf(schema as z.ZodObject)]),
  ) as Rules;
}
