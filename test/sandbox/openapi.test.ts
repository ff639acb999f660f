import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox, createWallet, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
let document: any;
beforeAll(async () => {
  t = await createTestSandbox();
  document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
});
afterAll(() => t.close());

interface Operation {
  method: string;
  path: string;
  parameters?: { in: string; name: string; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}
const operations = (): Operation[] =>
  Object.entries(document.paths as Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>).flatMap(
    ([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
  );
const declared = (method: string, path: string) =>
  Object.keys(document.paths[path][method.toLowerCase()].responses).map(Number);

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of both surfaces', async () => {
    const r = await t.call('GET', '/openapi.json', undefined, { key: null });
    expect(r.status).toBe(200);
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/wallets',
        '/v1/wallets/{wallet_id}/transfer',
        '/v1/wallets/{wallet_id}/transactions',
        '/v1/transactions/{tx_id}',
        '/sandbox/inbound-transfers',
        '/sandbox/audit',
      ]),
    );
  });

  it('is generated from the schemas that validate requests', async () => {
    const transfer = document.paths['/v1/wallets/{wallet_id}/transfer'].post;
    const body = transfer.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['destination_account_number', 'amount']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.amount).toMatchObject({ type: 'integer', minimum: 1, maximum: 10_000_000_000_000 });
    expect(document.components.schemas.Wallet.properties.account_number.type).toBe('string');
    expect(document.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
  });

  it('declares page and limit as integers with their bounds on every list', async () => {
    // A search is not paged: its limit is per kind of record.
    const lists = operations().filter(
      (o) => o.path !== '/sandbox/search' && o.parameters?.some((p) => p.in === 'query' && p.name === 'limit'),
    );
    expect(lists.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'GET /v1/wallets/{wallet_id}/transactions',
        'GET /v1/agents',
        'GET /v1/suspense',
        'GET /v1/webhook-logs',
        'GET /sandbox/wallets',
        'GET /sandbox/receiver/events',
      ]),
    );
    for (const list of lists) {
      const query = (name: string) => list.parameters!.find((p) => p.in === 'query' && p.name === name)!;
      expect([list.path, query('page').schema, query('page').required]).toEqual([
        list.path,
        { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        false,
      ]);
      expect([list.path, query('limit').schema, query('limit').required]).toEqual([
        list.path,
        { type: 'integer', minimum: 1, maximum: 100 },
        false,
      ]);
    }
  });
});

describe("the service's extensions in /openapi.json", () => {
  it("marks every query parameter beyond the seed interface with x-ledger-extension on the parameter, and none of the seed's", () => {
    const marks = (path: string) =>
      Object.fromEntries(
        (
          document.paths[path].get.parameters as {
            in: string;
            name: string;
            'x-ledger-extension'?: boolean;
            schema: Record<string, unknown>;
          }[]
        )
          .filter((p) => p.in === 'query')
          .map((p) => {
            expect(p.schema['x-ledger-extension']).toBeUndefined();
            return [p.name, p['x-ledger-extension'] === true];
          }),
      );
    const filters = {
      since: true,
      until: true,
      amount_min: true,
      amount_max: true,
      sender: true,
      provider_reference: true,
    };
    expect(marks('/v1/suspense')).toEqual({
      page: false,
      limit: false,
      order: true,
      status: false,
      reason: false,
      ...filters,
      wallet_id: true,
      customer_reference: true,
    });
    expect(marks('/v1/webhook-logs')).toEqual({
      page: false,
      limit: false,
      order: true,
      status: false,
      event_type: false,
      since: true,
      until: true,
      wallet_id: true,
      customer_reference: true,
    });
    expect(marks('/v1/wallets/{wallet_id}/transactions')).toEqual({
      page: false,
      limit: false,
      order: true,
      type: true,
      status: true,
      ...filters,
    });
    expect(marks('/v1/agents')).toEqual({ page: false, limit: false, order: true, wallet_id: false });
    // Whole operations of the service's own are marked on the operation.
    expect(document.paths['/v1/transactions'].get['x-ledger-extension']).toBe(true);
  });
});

describe('the statuses each operation declares (decisions: Requests and validation)', () => {
  it('declares on every operation the refusals of its kind', () => {
    for (const o of operations()) {
      const statuses = Object.keys(o.responses).map(Number);
      const expected = [400, 414, 431, 500, 503];
      if (o.security === undefined || o.security.length > 0) expected.push(401);
      if (o.path.includes('{')) expected.push(404);
      if (o.method !== 'GET') expected.push(413, 415, 507);
      if (o.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key')) expected.push(409);
      expect([`${o.method} ${o.path}`, statuses]).toEqual([`${o.method} ${o.path}`, expect.arrayContaining(expected)]);
      for (const status of statuses.filter((s) => s >= 400)) {
        expect(o.responses[status]!.content!['application/json']!.schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
        expect(o.responses[status]!.description).toMatch(/^Refused \(.+\), in the Error shape$/);
      }
    }
    expect(document.paths['/sandbox/health'].get.responses['401']).toBeUndefined();
    expect(document.paths['/v1/banks'].get.responses['409']).toBeUndefined();
  });

  it('declares every status that each operation answers to a refusal of its own', async () => {
    const answered: [string, string, number][] = [];
    const call = async (method: string, path: string, url: string, body?: unknown) => {
      const r = await t.call(method, url, body);
      answered.push([method, path, r.status]);
      return r;
    };
    const rich = await createWallet(t, 100_000);
    const poor = await createWallet(t, 10);
    const locked = await createWallet(t, 5_000, { allow_transfers_out: false });
    const closed = await createWallet(t, 5_000);
    await call('POST', '/v1/wallets/{wallet_id}/close', `/v1/wallets/${closed.id}/close`);
    await call('POST', '/v1/wallets/{wallet_id}/close', `/v1/wallets/${closed.id}/close`);
    await call('POST', '/v1/wallets', '/v1/wallets', {
      customer_reference: rich.customer_reference,
      first_name: 'A',
      last_name: 'B',
      email: 'a@b.ng',
    });
    const transfer = (from: string, body: unknown) =>
      call('POST', '/v1/wallets/{wallet_id}/transfer', `/v1/wallets/${from}/transfer`, body);
    await transfer(locked.id, { destination_account_number: rich.account_number, amount: 1 });
    await transfer(closed.id, { destination_account_number: rich.account_number, amount: 1 });
    await transfer(poor.id, { destination_account_number: rich.account_number, amount: 11 });
    await transfer(rich.id, { destination_account_number: '0000000000', destination_bank_code: '058', amount: 1 });
    await call('POST', '/v1/wallets/{wallet_id}/agents', `/v1/wallets/${closed.id}/agents`, {
      name: 'x',
      trigger: 'ON_CREDIT',
      action: 'LOCK_WALLET',
    });
    await call('PATCH', '/sandbox/wallets/{wallet_id}', `/sandbox/wallets/${closed.id}`, { allow_transfers_out: true });
    await call('POST', '/v1/banks/resolve', '/v1/banks/resolve', { account_number: '0000000000', bank_code: '058' });
    await call('POST', '/sandbox/inbound-transfers', '/sandbox/inbound-transfers', {
      account_number: '0123456789',
      amount: 1,
    });
    const first = await call('POST', '/sandbox/inbound-transfers', '/sandbox/inbound-transfers', {
      account_number: rich.account_number,
      amount: 1,
      provider_reference: 'ref-1',
    });
    expect(first.status).toBe(200);
    await call('POST', '/sandbox/inbound-transfers', '/sandbox/inbound-transfers', {
      account_number: rich.account_number,
      amount: 2,
      provider_reference: 'ref-1',
    });
    const held = (
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: rich.account_number,
        amount: 500,
        narration: 'asdfgh',
      })
    ).body.data.suspense_item;
    await call('POST', '/v1/suspense/{suspense_id}/resolve', `/v1/suspense/${held.id}/resolve`, { action: 'REFUND' });
    await call('POST', '/v1/suspense/{suspense_id}/resolve', `/v1/suspense/${held.id}/resolve`, { action: 'DISMISS' });
    await call('POST', '/v1/suspense/{suspense_id}/resolve', `/v1/suspense/${held.id}/resolve`, { action: 'DISMISS' });
    const log = (await t.call('GET', '/v1/webhook-logs')).body.data.items[0];
    await call('POST', '/v1/webhook-logs/{log_id}/retry', `/v1/webhook-logs/${log.id}/retry`);

    const statuses = answered.map(([, , status]) => status);
    expect(new Set(statuses)).toEqual(new Set([200, 403, 404, 409, 422]));
    for (const [method, path, status] of answered)
      expect([method, path, declared(method, path)]).toEqual([method, path, expect.arrayContaining([status])]);
  });
});

describe('a client generated with openapi-typescript', () => {
  it('type-checks with numbers for page and limit, and the declared refusals', async () => {
    const types = astToString(await openapiTS(structuredClone(document)));
    const dir = mkdtempSync(join(tmpdir(), 'ledger-openapi-'));
    try {
      writeFileSync(join(dir, 'api.ts'), types);
      writeFileSync(
        join(dir, 'client.ts'),
        [
          "import type { paths } from './api.js';",
          "type ListTransactions = paths['/v1/wallets/{wallet_id}/transactions']['get'];",
          "type Query = NonNullable<ListTransactions['parameters']['query']>;",
          "export const query: Query = { limit: 10, page: 2, order: 'desc', type: 'CREDIT' };",
          "export const url = (walletId: ListTransactions['parameters']['path']['wallet_id'], q: Query) =>",
          '  `/v1/wallets/${walletId}/transactions?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;',
          '// @ts-expect-error limit is a number, not a string',
          "export const wrong: Query = { limit: '10' };",
          "type Transfer = paths['/v1/wallets/{wallet_id}/transfer']['post']['responses'];",
          "export const refused: Transfer[422]['content']['application/json']['detail']['code'] = 'INSUFFICIENT_FUNDS';",
          "export const full: Transfer[507]['content']['application/json']['detail']['code'] = 'STORAGE_FULL';",
          "export const tooLong: Transfer[414]['content']['application/json']['detail']['code'] = 'URI_TOO_LONG';",
          '',
        ].join('\n'),
      );
      const program = ts.createProgram([join(dir, 'client.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: [],
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
