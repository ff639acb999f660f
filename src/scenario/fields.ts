import { z } from 'zod';
import { AgentPageResponse, AgentResponse, AgentRunPageResponse } from '../api/schemas/agents.js';
import { BankList, MagicList, ResolvedAccount } from '../api/schemas/banks.js';
import { Page } from '../api/schemas/common.js';
import { ReportResponse } from '../api/schemas/report.js';
import { RequestLogEntryResponse, RequestLogPageResponse } from '../api/schemas/requests.js';
import {
  AnalysisPreview,
  AuditReport,
  ClockState,
  InboundOutcome,
  KeyInfo,
  NewDeveloper,
  ResetResult,
  RotatedKey,
} from '../api/schemas/sandbox.js';
import { SearchResponse } from '../api/schemas/search.js';
import { DeletedSnapshotResponse, SnapshotPageResponse, SnapshotResponse } from '../api/schemas/snapshots.js';
import { Resolution, SuspensePageResponse, SuspenseResponse } from '../api/schemas/suspense-requests.js';
import { TransactionPageResponse, TransactionResponse, TransferResponse } from '../api/schemas/transactions.js';
import { WalletPageResponse, WalletResponse } from '../api/schemas/wallets.js';
import {
  AttemptsResponse,
  EndpointResponse,
  ReceiverBehaviourResponse,
  ReceiverEventsResponse,
  WebhookLog,
  WebhookLogResponse,
} from '../api/schemas/webhooks.js';

/**
 * The fields a command step's `data` can have, for `expect` and `save`: for each command a scenario
 * can run, the zod schema of what its `--json` prints (the `data` of the API's answer, as the route
 * declares it, or what the command puts together from such answers), and the table of their paths
 * that docs/scenarios.md holds between its markers. `scripts/scenario-fields.js` writes the table
 * after a build; a test fails when the doc's table is not what the schemas give now.
 */

const dataOf = <T extends z.ZodType>(response: z.ZodObject<{ data: T }>): T => response.shape.data;

/** Command path → the schema of its `--json` output (a step's `data`). */
export const COMMAND_DATA: Record<string, z.ZodType> = {
  'sandbox reset': ResetResult,
  'sandbox audit': AuditReport,
  // `sandbox keys` adds the key in use to what the sandbox says of it.
  'sandbox keys': KeyInfo.extend({ api_key: z.string().nullable() }),
  'sandbox keys rotate': RotatedKey,
  'sandbox clock': ClockState,
  'sandbox clock advance': ClockState,
  'sandbox analyse': AnalysisPreview,
  'sandbox snapshot save': dataOf(SnapshotResponse),
  'sandbox snapshot restore': dataOf(SnapshotResponse),
  'sandbox snapshot list': dataOf(SnapshotPageResponse),
  'sandbox snapshot delete': dataOf(DeletedSnapshotResponse),
  'sandbox magic': dataOf(MagicList),
  'sandbox payouts settle': dataOf(TransactionResponse),
  'sandbox payouts fail': dataOf(TransactionResponse),
  'sandbox receiver fail': dataOf(ReceiverBehaviourResponse),
  'sandbox receiver reset': dataOf(ReceiverBehaviourResponse),
  'sandbox receiver events': dataOf(ReceiverEventsResponse),
  'sandbox developers create': NewDeveloper,
  'wallets create': dataOf(WalletResponse),
  'wallets get': dataOf(WalletResponse),
  'wallets list': dataOf(WalletPageResponse),
  'wallets close': dataOf(WalletResponse),
  'wallets unlock': dataOf(WalletResponse),
  find: dataOf(SearchResponse),
  credit: InboundOutcome,
  transfer: dataOf(TransferResponse),
  report: dataOf(ReportResponse),
  'transactions list': dataOf(TransactionPageResponse),
  'transactions get': dataOf(TransactionResponse),
  'agents create': dataOf(AgentResponse),
  'agents toggle': dataOf(AgentResponse),
  'agents list': dataOf(AgentPageResponse),
  'agents runs': dataOf(AgentRunPageResponse),
  'suspense list': dataOf(SuspensePageResponse),
  'suspense show': dataOf(SuspenseResponse),
  'suspense resolve': Resolution,
  'suspense flag': dataOf(SuspenseResponse),
  'suspense note': dataOf(SuspenseResponse),
  'webhooks list': Page(dataOf(WebhookLogResponse)),
  'logs list': dataOf(RequestLogPageResponse),
  'logs show': dataOf(RequestLogEntryResponse),
  // One delivery and every attempt of it, from two answers.
  'webhooks show': z.object({ log: dataOf(WebhookLogResponse), attempts: dataOf(AttemptsResponse).shape.items }),
  // The logs the retries returned, as a page.
  'webhooks retry': Page(WebhookLog),
  'webhooks secret': dataOf(EndpointResponse),
  'webhooks secret rotate': dataOf(EndpointResponse),
  'webhooks endpoint': dataOf(EndpointResponse),
  'webhooks endpoint set': dataOf(EndpointResponse),
  'webhooks endpoint reset': dataOf(EndpointResponse),
  'banks list': dataOf(BankList),
  'banks resolve': ResolvedAccount,
};

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  definitions?: Record<string, JsonSchema>;
};

/**
 * Every path into a value of `schema`, as `expect` and `save` write them below `data`: nested
 * objects dotted, an array's items as `[]` (write an index there: `items[0].id`), a map's keys as
 * `<key>`. Every branch of a union is walked, each path listed once.
 * @example fieldPaths(z.object({ items: z.array(z.object({ id: z.string() })), total: z.int() })) // ['items[].id', 'total']
 */
export function fieldPaths(schema: z.ZodType): string[] {
  const root = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const paths: string[] = [];
  const walk = (node: JsonSchema, path: string): void => {
    if (node.$ref) return walk(root.definitions![node.$ref.replace('#/definitions/', '')]!, path);
    const branches = [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])];
    if (branches.length > 0) {
      const values = branches.filter((branch) => branch.type !== 'null');
      for (const branch of values) walk(branch, path);
      return;
    }
    if (node.properties) {
      for (const [key, child] of Object.entries(node.properties)) walk(child, path ? `${path}.${key}` : key);
    } else if (node.type === 'object' && typeof node.additionalProperties === 'object') {
      walk(node.additionalProperties, `${path}.<key>`);
    } else if (node.type === 'array' && node.items) {
      walk(node.items, `${path}[]`);
    } else if (path && !paths.includes(path)) {
      paths.push(path);
    }
  };
  walk(root, '');
  return paths;
}

export const FIELDS_START =
  '<!-- fields:start: written by `node scripts/scenario-fields.js` after `npm run build`; edit src/scenario/fields.ts instead -->';
export const FIELDS_END = '<!-- fields:end -->';

/**
 * Paths that share a start written once: `items[].{id, amount}` for `items[].id` and `items[].amount`.
 * @example grouped(['outcome', 'transaction.id', 'transaction.fee']) // ['outcome', 'transaction.{id, fee}']
 */
export function grouped(paths: string[]): string[] {
  const heads = new Map<string, string[]>();
  for (const path of paths) {
    const [head, ...rest] = path.split('.');
    const tails = heads.get(head!) ?? [];
    if (rest.length > 0) tails.push(rest.join('.'));
    heads.set(head!, tails);
  }
  return [...heads].map(([head, tails]) => {
    if (tails.length === 0) return head;
    const inner = grouped(tails);
    return inner.length === 1 ? `${head}.${inner[0]}` : `${head}.{${inner.join(', ')}}`;
  });
}

/** The table: one row for the commands whose `data` has the same fields, each field once. */
export function fieldsTable(): string {
  const rows = new Map<string, string[]>();
  for (const [command, schema] of Object.entries(COMMAND_DATA)) {
    const fields = grouped(fieldPaths(schema))
      .map((field) => `\`${field}\``)
      .join(' ');
    rows.set(fields, [...(rows.get(fields) ?? []), `\`${command}\``]);
  }
  return [
    '| command | fields of `data` |',
    '|---|---|',
    ...[...rows].map(([fields, commands]) => `| ${commands.join(', ')} | ${fields} |`),
  ].join('\n');
}

/** `doc` with the text between its markers replaced by the table as the schemas give it now. */
export function withFieldsTable(doc: string): string {
  const start = doc.indexOf(FIELDS_START);
  const end = doc.indexOf(FIELDS_END);
  if (start < 0 || end < start)
    throw new Error(`the fields table's markers are not in the document: ${FIELDS_START} … ${FIELDS_END}`);
  return `${doc.slice(0, start + FIELDS_START.length)}\n${fieldsTable()}\n${doc.slice(end)}`;
}
