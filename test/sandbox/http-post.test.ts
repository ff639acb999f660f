import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/sandbox/webhooks/http-post.js';

let server: http.Server;
let base: string;
const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ headers: request.headers, body });
      if (request.url === '/long') return response.writeHead(200).end('é'.repeat(10_000));
      if (request.url === '/moved') return response.writeHead(302, { location: '/elsewhere' }).end();
      response.writeHead(201).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options = { timeoutMs: 5_000, limit: 4096 };

describe('postWebhook', () => {
  it('sends the exact body with its headers and returns the status and answer', async () => {
    const result = await postWebhook(
      new URL(`${base}/hook`),
      { 'webhook-id': 'evt_1', 'content-type': 'application/json' },
      '{"a":"ñ"}',
      options,
    );
    expect(result).toEqual({ status: 201, body: 'ok' });
    expect(seen.at(-1)).toMatchObject({
      body: '{"a":"ñ"}',
      headers: { 'webhook-id': 'evt_1', 'content-length': '10' },
    });
  });

  it('keeps only the first `limit` bytes of a long answer', async () => {
    const result = await postWebhook(new URL(`${base}/long`), {}, '{}', options);
    expect(result.status).toBe(200);
    expect(Buffer.byteLength(result.body)).toBeLessThanOrEqual(4096);
    expect(result.body.startsWith('é'.repeat(2000))).toBe(true);
  });

  it('does not follow a redirect', async () => {
    expect((await postWebhook(new URL(`${base}/moved`), {}, '{}', options)).status).toBe(302);
  });

  it('names a refused connection by its socket error code', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(postWebhook(new URL(`http://127.0.0.1:${port}/`), {}, '{}', options)).rejects.toThrow('ECONNREFUSED');
  });
});
