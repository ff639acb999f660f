import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ scope: 'all' });

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of both surfaces', async () => {
    const r = await t.call('GET', '/openapi.json', undefined, { key: null });
    expect(r.status).toBe(200);
    const document = r.body;
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/wallets', '/v1/wallets/{wallet_id}/transfer', '/v1/wallets/{wallet_id}/transactions', '/v1/transactions/{tx_id}', '/sandbox/inbound-transfers', '/sandbox/audit']),
    );
  });

  it('is generated from the schemas that validate requests', async () => {
    const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
    const transfer = document.paths['/v1/wallets/{wallet_id}/transfer'].post;
    const body = transfer.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['destination_account_number', 'amount']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.amount).toMatchObject({ type: 'integer', minimum: 1, maximum: 10_000_000_000_000 });
    expect(document.components.schemas.Wallet.properties.account_number.type).toBe('string');
    expect(document.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
  });
});
