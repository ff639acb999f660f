import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { structureProblem } from '../../src/sandbox/plugins/body.js';
import { createTestSandbox, createWallet, expectCleanAudit, type TestSandbox } from '../helpers/sandbox.js';

/**
 * What Node's HTTP parser and Fastify refuse before a route runs
 * (decisions: Requests and validation), over a real socket: each refusal in the documented shape,
 * with its status and code.
 */
interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as is on a new connection and reads the answer until the server closes it. */
function raw(port: number, request: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

let t: TestSandbox;
let port: number;
let wallet: { id: string; account_number: string };
/** A request line and headers, with the key and `connection: close`, so the answer ends the connection. */
const request = (line: string, headers = '', options: { key?: boolean } = {}) =>
  raw(
    port,
    `${line} HTTP/1.1\r\nhost: 127.0.0.1\r\n${options.key === false ? '' : `x-api-key: ${t.key}\r\n`}connection: close\r\n${headers}\r\n`,
  );

function expectRefusal(reply: RawReply, status: number, code: string, message?: RegExp) {
  expect([reply.status, reply.headers['content-type']]).toEqual([status, 'application/json; charset=utf-8']);
  expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  const body = JSON.parse(reply.body);
  expect(body).toEqual({
    success: false,
    detail: {
      code,
      message: message ? expect.stringMatching(message) : expect.any(String),
      ...(body.detail.fields ? { fields: expect.any(Array) } : {}),
      // Every refusal names its request, as its header does: even one the HTTP parser made, with no request to number.
      request_id: reply.headers['request-id'],
    },
  });
  expect(reply.headers['request-id']).toMatch(/^req_((anon|conn)_)?\d{8}$/);
  return body.detail;
}

beforeAll(async () => {
  t = await createTestSandbox({ listen: true });
  port = Number(new URL(t.baseUrl!).port);
  wallet = await createWallet(t, 5_000);
});
afterAll(() => t.close());

describe('refusals of the HTTP layer, in the documented shape', () => {
  it('answers 431 HEADERS_TOO_LARGE to headers past 16 KiB', async () => {
    expectRefusal(
      await request('GET /sandbox/clock', `x-padding: ${'a'.repeat(20_000)}\r\n`),
      431,
      'HEADERS_TOO_LARGE',
      /16384 bytes/,
    );
    const many = Array.from({ length: 300 }, (_, i) => `x-h${i}: ${'v'.repeat(60)}`).join('\r\n');
    expectRefusal(await request('GET /sandbox/clock', `${many}\r\n`), 431, 'HEADERS_TOO_LARGE');
  });

  it('answers 414 URI_TOO_LONG to a URL past 8 KiB: a query string, a path id, or one the parser stops in', async () => {
    expectRefusal(
      await request(`GET /sandbox/wallets?customer_reference=${'a'.repeat(9_000)}`),
      414,
      'URI_TOO_LONG',
      /8192 bytes/,
    );
    expectRefusal(await request(`GET /v1/wallets/${'a'.repeat(9_000)}`), 414, 'URI_TOO_LONG');
    expectRefusal(await request(`GET /v1/wallets/${'a'.repeat(12_000)}`), 414, 'URI_TOO_LONG');
    expectRefusal(await request(`GET /sandbox/clock?x=${'a'.repeat(20_000)}`), 414, 'URI_TOO_LONG');
    // Just under the limit is read.
    const under = await request(`GET /sandbox/wallets?customer_reference=${'a'.repeat(8_000)}`);
    expect([under.status, JSON.parse(under.body).data.total]).toEqual([200, 0]);
  });

  it('answers 404 NOT_FOUND, like any unknown id, to a path id past Fastify’s 100 characters', async () => {
    const detail = expectRefusal(await request(`GET /v1/wallets/${'a'.repeat(150)}`), 404, 'NOT_FOUND');
    expect(detail.message).toBe('wallet not found');
  });

  it('answers 400 VALIDATION_ERROR to bad percent-encoding, naming where it is', async () => {
    const inId = expectRefusal(await request('GET /v1/wallets/%E0%A4%A'), 400, 'VALIDATION_ERROR');
    expect(inId.fields).toEqual([{ field: 'path', message: 'is not valid percent-encoding (UTF-8)' }]);
    expectRefusal(await request('GET /v1/wal%ZZlets/x'), 400, 'VALIDATION_ERROR');
    // In the query too: taken as a filter, the malformed value would answer 200.
    const inQuery = expectRefusal(
      await request('GET /sandbox/wallets?customer_reference=%E0%A4%A'),
      400,
      'VALIDATION_ERROR',
    );
    expect(inQuery.fields).toEqual([{ field: 'customer_reference', message: 'is not valid percent-encoding (UTF-8)' }]);
    const inName = expectRefusal(await request('GET /sandbox/wallets?%FF=1'), 400, 'VALIDATION_ERROR');
    expect(inName.fields).toEqual([{ field: 'query', message: 'is not valid percent-encoding (UTF-8)' }]);
    // Good encoding is decoded as usual.
    const good = await request(`GET /sandbox/wallets?customer_reference=${encodeURIComponent('a b&c')}`);
    expect(good.status).toBe(200);
  });

  it('answers 400 VALIDATION_ERROR to a request that is not HTTP/1.1', async () => {
    const method = expectRefusal(
      await raw(port, 'BREW /sandbox/clock HTTP/1.1\r\nhost: x\r\n\r\n'),
      400,
      'VALIDATION_ERROR',
      /not valid HTTP\/1\.1/,
    );
    expect(method.fields).toEqual([{ field: 'request', message: expect.any(String) }]);
    expectRefusal(
      await raw(
        port,
        `POST /v1/wallets HTTP/1.1\r\nhost: x\r\nx-api-key: ${t.key}\r\ncontent-type: application/json\r\ncontent-length: abc\r\n\r\n{}`,
      ),
      400,
      'VALIDATION_ERROR',
    );
    expectRefusal(await raw(port, 'not http at all\r\n\r\n'), 400, 'VALIDATION_ERROR');
  });

  it('answers 404 NOT_FOUND to methods no route takes, CONNECT included', async () => {
    expect(
      expectRefusal(await raw(port, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nhost: 127.0.0.1:443\r\n\r\n'), 404, 'NOT_FOUND')
        .message,
    ).toBe('no route CONNECT 127.0.0.1:443');
    expect(expectRefusal(await request('OPTIONS /v1/wallets'), 404, 'NOT_FOUND').message).toBe(
      'no route OPTIONS /v1/wallets',
    );
    expect(expectRefusal(await request('TRACE /sandbox/clock'), 404, 'NOT_FOUND').message).toBe(
      'no route TRACE /sandbox/clock',
    );
  });

  it('serves a request without Host instead of a bare 400', async () => {
    const reply = await raw(port, `GET /sandbox/clock HTTP/1.1\r\nx-api-key: ${t.key}\r\nconnection: close\r\n\r\n`);
    expect([reply.status, JSON.parse(reply.body).success]).toEqual([200, true]);
  });
});

describe('request bodies', () => {
  it('answers 400 to JSON nested deeper than 32 levels, with or without an Idempotency-Key, and releases the key', async () => {
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    for (const headers of [{}, { 'idempotency-key': 'deep-1' }] as Record<string, string>[]) {
      const r = await t.call('POST', '/v1/wallets', deep, { headers });
      expect([r.status, r.body.detail]).toEqual([
        400,
        {
          code: 'VALIDATION_ERROR',
          message: 'body: nests objects or arrays deeper than 32 levels',
          fields: [{ field: 'body', message: 'nests objects or arrays deeper than 32 levels' }],
          request_id: r.headers['request-id'],
        },
      ]);
    }
    const retried = await t.call(
      'POST',
      '/v1/wallets',
      { customer_reference: 'deep', first_name: 'Ada', last_name: 'Obi', email: 'deep@example.com' },
      { headers: { 'idempotency-key': 'deep-1' } },
    );
    expect(retried.status).toBe(201);
    const shallow = await t.call('POST', '/v1/wallets', {
      customer_reference: 'x',
      first_name: 'Ada',
      last_name: 'Obi',
      email: 'x@example.com',
      label: [[[[1]]]],
    });
    expect([shallow.status, shallow.body.detail.fields]).toEqual([
      400,
      [{ field: 'label', message: 'must be a string' }],
    ]);
  });
});

describe('a compressed body', () => {
  it('refuses a gzip Content-Encoding with 415 UNSUPPORTED_MEDIA_TYPE and Accept-Encoding: identity, and writes nothing', async () => {
    // Bodies are not decompressed: read as they come, compressed bytes would be taken for bad JSON.
    const body = JSON.stringify({
      customer_reference: 'zipped',
      first_name: 'Ada',
      last_name: 'Obi',
      email: 'zip@example.com',
    });
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['gzip', Buffer.from(body)],
    ] as const) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/v1/wallets',
        headers: { 'x-api-key': t.key, 'content-type': 'application/json', 'content-encoding': encoding },
        payload: bytes,
      });
      expect([encoding, r.statusCode, r.headers['accept-encoding'], r.json().detail]).toEqual([
        encoding,
        415,
        'identity',
        {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `Content-Encoding ${encoding} is not accepted: send the JSON body uncompressed (at most 64 KiB)`,
          request_id: r.headers['request-id'],
        },
      ]);
    }
    expect((await t.call('GET', '/sandbox/wallets?customer_reference=zipped')).body.data.total).toBe(0);
    // identity is no coding at all.
    const plain = await t.call('POST', '/v1/wallets', body, { headers: { 'content-encoding': 'identity' } });
    expect(plain.status).toBe(201);
  });
});

describe('a body that is not a JSON object', () => {
  it('refuses an empty body, null or an array on a write that needs a body with a message that says what to send', async () => {
    const url = `/v1/wallets/${wallet.id}/transfer`;
    for (const [body, message] of [
      ['', 'is required: send a JSON object'],
      ['null', 'is required: send a JSON object'],
      ['[1]', 'must be a JSON object'],
      ['"amount"', 'must be a JSON object'],
      ['42', 'must be a JSON object'],
    ]) {
      const r = await t.call('POST', url, body, { headers: { 'content-type': 'application/json' } });
      expect([body, r.status, r.body.detail]).toEqual([
        body,
        400,
        {
          code: 'VALIDATION_ERROR',
          message: `body ${message}`,
          fields: [{ field: 'body', message }],
          request_id: r.headers['request-id'],
        },
      ]);
    }
    expect((await t.call('GET', `/v1/wallets/${wallet.id}`)).body.data.balance).toBe(5_000);
  });
});

describe('a name given twice in one JSON object', () => {
  it('is refused by name, before anything runs: no money moves, whichever value was meant', async () => {
    const other = await createWallet(t);
    const before = (await t.call('GET', `/v1/wallets/${wallet.id}`)).body.data.balance;
    for (const [body, field] of [
      [`{"destination_account_number":"${other.account_number}","amount":100,"amount":200}`, 'amount'],
      // The same name written with an escape is the same name.
      [`{"destination_account_number":"${other.account_number}","amount":100,"\\u0061mount":200}`, 'amount'],
      [
        `{"destination_account_number":"${other.account_number}","destination_account_number":"${wallet.account_number}","amount":100}`,
        'destination_account_number',
      ],
    ]) {
      for (const headers of [{}, { 'idempotency-key': `twice-${field}` }] as Record<string, string>[]) {
        const r = await t.call('POST', `/v1/wallets/${wallet.id}/transfer`, body, { headers });
        expect([r.status, r.body.detail], body).toEqual([
          400,
          {
            code: 'VALIDATION_ERROR',
            message: `${field}: appears more than once`,
            fields: [{ field, message: 'appears more than once' }],
            request_id: r.headers['request-id'],
          },
        ]);
      }
    }
    expect((await t.call('GET', `/v1/wallets/${wallet.id}`)).body.data.balance).toBe(before);
    expect((await t.call('GET', `/v1/wallets/${other.id}`)).body.data.balance).toBe(0);
    // The key was not kept by the refusal: the same key with a good body goes through.
    const sent = await t.call(
      'POST',
      `/v1/wallets/${wallet.id}/transfer`,
      { destination_account_number: other.account_number, amount: 100 },
      { headers: { 'idempotency-key': 'twice-amount' } },
    );
    expect([sent.status, sent.body.data.new_balance]).toEqual([200, before - 100]);
    await expectCleanAudit(t);
  });

  it('is found at any depth and named by its path; the same name in two objects, or at two depths, is no repeat', () => {
    expect(structureProblem('{"a":{"b":{"x":1,"y":[1,{"z":2}],"x":3}}}', 32)).toEqual({
      field: 'a.b.x',
      message: 'appears more than once',
    });
    expect(structureProblem('{"items":[{"k":1,"k":2}]}', 32)).toEqual({
      field: 'items.k',
      message: 'appears more than once',
    });
    expect(structureProblem('[{"a":1},{"a":2}]', 32)).toBeUndefined();
    expect(structureProblem('{"a":{"a":{"a":1}},"b":1}', 32)).toBeUndefined();
    // Quotes, commas and braces inside strings are text, not structure.
    expect(structureProblem('{"s":"a,\\"s\\":{","t":"}\\\\","u":"]["}', 32)).toBeUndefined();
    expect(structureProblem('{"s":"\\\\","s":1}', 32)).toEqual({ field: 's', message: 'appears more than once' });
    expect(structureProblem('[{"":1,"":2}]', 32)).toEqual({ field: '', message: 'appears more than once' });
    expect(structureProblem(`${'['.repeat(32)}${']'.repeat(32)}`, 32)).toBeUndefined();
    expect(structureProblem(`${'['.repeat(33)}${']'.repeat(33)}`, 32)).toEqual({
      field: 'body',
      message: 'nests objects or arrays deeper than 32 levels',
    });
    expect(structureProblem('"text"', 32)).toBeUndefined();
  });
});

describe('HEAD', () => {
  it('answers every GET operation as GET would, status and headers, with no body', async () => {
    const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
    const tx = (await t.call('GET', `/v1/wallets/${wallet.id}/transactions`)).body.data.items[0].id;
    const log = (await t.call('GET', '/v1/webhook-logs')).body.data.items[0].id;
    const ids: Record<string, string> = { wallet_id: wallet.id, tx_id: tx, log_id: log };
    const gets = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .filter(([, item]) => 'get' in item)
      .map(([path]) => path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? 'unknown-id'));
    expect(gets.length).toBeGreaterThanOrEqual(18);
    // Each route answers GET and HEAD alike, whether it serves (200) or refuses (401, 404, 400).
    const cases = [
      ...gets.map((url) => ({ url, key: true })),
      { url: '/sandbox/clock', key: false },
      { url: `/v1/wallets/${'x'.repeat(150)}`, key: true },
      { url: '/sandbox/wallets?limit=0', key: true },
    ];
    const seen = new Set<number>();
    for (const { url, key } of cases) {
      const get = await request(`GET ${url}`, '', { key });
      const head = await request(`HEAD ${url}`, '', { key });
      seen.add(get.status);
      expect([url, head.status, head.headers['content-type'], head.headers['content-length'], head.body]).toEqual([
        url,
        get.status,
        get.headers['content-type'],
        get.headers['content-length'],
        '',
      ]);
      if (get.status >= 400) expectRefusal(get, get.status, expect.any(String) as unknown as string);
    }
    expect([...seen].sort()).toEqual([200, 400, 401, 404]);
    // No route: the same refusal, naming the method asked.
    const none = await request('HEAD /v1/nothing');
    expect([none.status, none.headers['content-type'], Number(none.headers['content-length']), none.body]).toEqual([
      404,
      'application/json; charset=utf-8',
      Buffer.byteLength(
        JSON.stringify({
          success: false,
          detail: { code: 'NOT_FOUND', message: 'no route HEAD /v1/nothing', request_id: none.headers['request-id'] },
        }),
      ),
      '',
    ]);
  });
});

describe('unknown query parameters', () => {
  it('are refused by name on every endpoint, not only on lists', async () => {
    const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
    type Parameter = { in: string; name: string; required?: boolean; example?: string };
    const operations = Object.entries(
      document.paths as Record<
        string,
        Record<string, { requestBody?: { required?: boolean }; parameters?: Parameter[] }>
      >,
    ).flatMap(([path, item]) =>
      Object.entries(item)
        // Operations that need no body (writes that take none declare it optional).
        .filter(([, operation]) => !operation.requestBody || operation.requestBody.required === false)
        .map(([method, operation]) => {
          // A query parameter the operation requires (a search's `q`) is given its declared example, so the unknown one is the only fault.
          const required = (operation.parameters ?? [])
            .filter((p) => p.in === 'query' && p.required)
            .map((p) => `${p.name}=${encodeURIComponent(p.example!)}&`)
            .join('');
          return { method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, wallet.id), required };
        }),
    );
    expect(operations.length).toBeGreaterThanOrEqual(25);
    for (const { method, url, required = '' } of [
      ...operations,
      { method: 'GET', url: '/openapi.json' },
      { method: 'POST', url: `/sandbox/receiver/${t.developerId}` },
    ]) {
      const r = await t.call(method, `${url}?${required}unexpected=1`);
      expect([method, url, r.status, r.body.detail?.code, r.body.detail?.fields]).toEqual([
        method,
        url,
        400,
        'VALIDATION_ERROR',
        [{ field: 'unexpected', message: 'unknown field' }],
      ]);
    }
  });
});

describe('a request during a graceful stop', () => {
  it('is refused with 503 STORAGE_UNAVAILABLE in the documented shape', async () => {
    // A webhook endpoint that holds its delivery keeps the stop waiting, with the server still listening.
    let held: ServerResponse | undefined;
    const endpoint = createServer((_request, response) => (held = response));
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const s = await createTestSandbox({ listen: true });
    try {
      const sPort = Number(new URL(s.baseUrl!).port);
      await s.call('PUT', '/sandbox/webhook-endpoint', {
        url: `http://127.0.0.1:${(endpoint.address() as { port: number }).port}/hooks`,
      });
      await createWallet(s, 1_000);
      const delivering = s.app.scheduler.runDue();
      while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
      const stopping = s.app.close();
      let reply: RawReply | undefined;
      for (let i = 0; i < 200 && reply?.status !== 503; i += 1) {
        reply = await raw(sPort, 'GET /sandbox/health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
        expect([200, 503]).toContain(reply.status);
      }
      expectRefusal(reply!, 503, 'STORAGE_UNAVAILABLE', /shutting down/);
      held.writeHead(200).end('ok');
      await delivering;
      await stopping;
    } finally {
      endpoint.close();
      await s.sandbox.close();
    }
  });
});
