import { z } from 'zod';
import { SNAPSHOT_NAME } from '../api/snapshot-name.js';
import { choicesOf } from '../client/validate.js';

/**
 * The scenario file format, written once: `load.ts` validates files with it (and says where a
 * file breaks it, by line and column), and `schema/scenario.schema.json`, which editors use to
 * validate and complete scenario files, is generated from it (`npm run schema`; a test keeps the
 * two the same).
 */

export const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `data.items[0].amount`, `data.items.0.amount`, `headers.idempotent-replayed`. */
export const RESULT_PATH = /^[A-Za-z_$][\w$-]*(?:\.[\w$-]+|\[\d+\])*$/;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const REQUEST_LINE = new RegExp(`^(${HTTP_METHODS.join('|')}) (/\\S*)$`);
export const DURATION = /^\d+(?:\.\d+)?\s*[smhd]?$/;
export const SNAPSHOT_STEP = new RegExp(`^(save|restore) (${SNAPSHOT_NAME.source.slice(1, -1)})$`);
export const ERROR_CODE = /^[A-Z][A-Z0-9_]*$/;
export const EVENT_TYPES = choicesOf('WebhookLogListQuery', 'event_type') as [string, ...string[]];

const ResultPath = z
  .string()
  .regex(RESULT_PATH, { error: 'must be a path into the result, like data.items[0].amount' });
const Comparable = z
  .union([z.number(), z.string()])
  .describe('a number, or text compared character by character (ISO timestamps compare in time order)');

export const NumberMatcher = z
  .strictObject({
    eq: z.int().min(0).optional(),
    gt: z.number().optional(),
    gte: z.number().optional(),
    lt: z.number().optional(),
    lte: z.number().optional(),
  })
  .meta({ minProperties: 1 });

export const MATCHERS = ['eq', 'gt', 'gte', 'lt', 'lte', 'matches', 'length', 'exists', 'one_of', 'contains'] as const;
export type MatcherName = (typeof MATCHERS)[number];

export const Matcher = z
  .strictObject({
    eq: z.unknown().optional().describe('equal to this value; objects and arrays are compared whole'),
    gt: Comparable.optional().describe('greater than'),
    gte: Comparable.optional().describe('greater than or equal to'),
    lt: Comparable.optional().describe('less than'),
    lte: Comparable.optional().describe('less than or equal to'),
    matches: z
      .string()
      .optional()
      .describe('text that matches this regular expression (JavaScript syntax, not anchored unless you anchor it)'),
    length: z
      .union([z.int().min(0), NumberMatcher])
      .optional()
      .describe('an array or text of this length (a number, or { gte: 1 } and the like)'),
    exists: z.boolean().optional().describe('true: present and not null; false: absent or null'),
    one_of: z.array(z.unknown()).min(1).optional().describe('equal to one of these values'),
    contains: z
      .unknown()
      .optional()
      .describe(
        'an array with an element equal to this (an object matches an element that has at least its fields), or text containing this text',
      ),
  })
  .meta({ id: 'Matcher', minProperties: 1, description: 'Every matcher given must hold.' });

const Expected = z
  .union([Matcher, z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown())])
  .describe('a value the field must equal, or an object of matchers');

export const Expect = z.record(ResultPath, Expected).meta({
  id: 'Expect',
  description: "Fields of the step's result (status or exit, data, error, headers…) and what each must be.",
});

const Save = z
  .record(z.string().regex(VAR_NAME, { error: 'must be a variable name: letters, digits and _' }), ResultPath)
  .describe("Variables to set from the step's result, used later as ${NAME}: { ADA: data.id }");

const common = {
  name: z.string().min(1).optional().describe('what the step is for, shown in reports'),
  save: Save.optional(),
  expect: Expect.optional(),
  expect_error: z
    .string()
    .regex(ERROR_CODE, { error: 'must be an error code like INSUFFICIENT_FUNDS' })
    .optional()
    .describe(
      'the step must fail with this error code (the API’s detail.code, or USAGE for a command line refused before sending)',
    ),
};

export const RunStep = z
  .strictObject({
    run: z
      .string()
      .min(1)
      .describe('a ledger command line as typed, without `ledger`: wallets create --customer-reference ada …'),
    ...common,
  })
  .meta({
    id: 'RunStep',
    description: 'A ledger command, run in this process through the same command code; its --json data is the result.',
  });

export const RequestStep = z
  .strictObject({
    request: z
      .string()
      .regex(REQUEST_LINE, { error: 'must be a method and a path, like POST /v1/wallets' })
      .describe('METHOD /path?query, like POST /v1/wallets/${ADA}/transfer'),
    body: z.unknown().optional().describe('the JSON body'),
    headers: z
      .record(z.string(), z.union([z.string(), z.null()]))
      .optional()
      .describe('extra headers; x-api-key is added for you (null leaves a header out: x-api-key: null sends no key)'),
    ...common,
  })
  .meta({
    id: 'RequestStep',
    description: 'An HTTP request to the sandbox; the result has status, headers, body, data and error.',
  });

export const AdvanceStep = z
  .strictObject({
    advance: z
      .union([z.string().regex(DURATION, { error: 'must be a duration like 2s, 5m, 1h or 1d' }), z.number().positive()])
      .describe('how far to move the sandbox clock: 90, 90s, 5m, 2h, 1d; what falls due runs before the step ends'),
    ...common,
  })
  .meta({ id: 'AdvanceStep' });

export const SnapshotStep = z
  .strictObject({
    snapshot: z
      .string()
      .regex(SNAPSHOT_STEP, { error: 'must be "save NAME" or "restore NAME"' })
      .describe('save NAME or restore NAME: the whole sandbox'),
    ...common,
  })
  .meta({ id: 'SnapshotStep' });

export const WebhookStep = z
  .strictObject({
    expect_webhook: z.enum(EVENT_TYPES).describe('the event type a delivery must have'),
    match: Expect.optional().describe('fields the delivered event (event_id, created_at, data…) must match'),
    name: common.name,
    save: common.save,
    expect: common.expect,
  })
  .meta({
    id: 'WebhookStep',
    description:
      'Waits (on the sandbox clock, a few scheduler passes, never real time) for a delivery the built-in receiver accepted with a valid signature.',
  });

/** The step kinds, by the key that names each. */
export const STEP_KINDS = {
  run: RunStep,
  request: RequestStep,
  advance: AdvanceStep,
  snapshot: SnapshotStep,
  expect_webhook: WebhookStep,
} as const;
export type StepKind = keyof typeof STEP_KINDS;

export const Step = z
  .union([
    z.string().min(1).describe('a command line (wallets get ${ADA}) or a request line (GET /v1/banks)'),
    ...Object.values(STEP_KINDS),
  ])
  .meta({ id: 'Step' });

export const Scenario = z
  .strictObject({
    $schema: z.string().optional().describe('where editors find this schema'),
    name: z.string().min(1).describe('the scenario, as reports name it'),
    description: z.string().optional(),
    seed: z
      .union([z.int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,16}$/)])
      .optional()
      .describe('seed of the fresh sandbox (default 1); --seed overrides it'),
    vars: z
      .record(z.string().regex(VAR_NAME, { error: 'must be a variable name: letters, digits and _' }), z.unknown())
      .optional()
      .describe('variables, used as ${NAME}'),
    setup: z
      .array(Step)
      .optional()
      .describe('steps that prepare the scenario; a failure here is an error, not a failed expectation'),
    steps: z.array(Step).min(1).describe('the steps, in order; the scenario stops at the first that fails'),
    audit: z.boolean().optional().describe('end with the ledger audit (default true)'),
  })
  .meta({ id: 'Scenario' });
export type ScenarioInput = z.infer<typeof Scenario>;

/** A file (or each YAML document of it) holds one scenario, or a list of them. */
export const ScenarioFile = z.union([Scenario, z.array(Scenario).min(1)]).meta({ title: 'ledger scenario file' });

/** The JSON Schema of a scenario file, for editors (draft-07, which every YAML and JSON language server reads). */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ScenarioFile, { target: 'draft-7' }) as Record<string, unknown>;
}
