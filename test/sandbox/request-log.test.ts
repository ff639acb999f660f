import { describe, expect, it } from 'vitest';
import { batchLines } from '../../src/sandbox/line-batch.js';
import { openServer } from '../../src/sandbox/server.js';
import { T0 } from '../helpers/sandbox.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the request log', () => {
  it('writes the lines of one turn of the event loop together, in order, and at once when closed', async () => {
    const writes: string[] = [];
    const log = batchLines((text) => writes.push(text));
    log.line('a');
    log.line('b');
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual(['a\nb\n']);
    log.line('c');
    log.close();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
    // After close, a late line is written by itself, not left waiting.
    log.line('d');
    expect(writes).toEqual(['a\nb\n', 'c\n', 'd\n']);
  });

  it('notes every request of a running server, and none is lost when it closes', async () => {
    const calls: string[] = [];
    const server = await openServer({
      dbPath: ':memory:',
      seed: 'log',
      clockStart: T0,
      log: () => {},
      logRequest: (text) => calls.push(text),
    });
    const headers = { 'x-api-key': server.apiKey };
    await Promise.all(
      Array.from({ length: 5 }, () => server.app.inject({ method: 'GET', url: '/sandbox/health', headers })),
    );
    await server.app.inject({ method: 'GET', url: '/v1/wallets/nope', headers });
    // Closed in the same turn as the last answer: its line is still waiting, and close writes it.
    await server.close();
    const lines = calls.flatMap((text) => text.split('\n'));
    expect(lines).toHaveLength(6);
    expect(lines.slice(0, 5)).toEqual(
      Array.from({ length: 5 }, () =>
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z GET \/sandbox\/health 200 \d+\.\dms$/),
      ),
    );
    expect(lines[5]).toMatch(/^\S+ GET \/v1\/wallets\/nope 404 \d+\.\dms$/);
    // Several lines to a write: fewer writes than requests.
    expect(calls.length).toBeLessThan(6);
  });

  it('redacts an API key sent in the query string or the path, and any webhook secret, from the request log', async () => {
    const calls: string[] = [];
    const server = await openServer({
      dbPath: ':memory:',
      seed: 'log-secrets',
      clockStart: T0,
      log: () => {},
      logRequest: (text) => calls.push(text),
    });
    const key = server.apiKey!;
    const secret = (
      await server.app.inject({ method: 'GET', url: '/sandbox/webhook-endpoint', headers: { 'x-api-key': key } })
    ).json().data.secret as string;
    const live = `svc_live_${key.slice('svc_test_'.length)}`;
    const urls = [
      `/sandbox/clock?api_key=${key}`,
      `/v1/wallets/${key}`,
      `/v1/wallets?key=${live}`,
      `/sandbox/clock?secret=${encodeURIComponent(secret)}`,
      `/sandbox/clock?k=${key.replace(/_/g, '%5F')}`,
    ];
    for (const url of urls) await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    await server.close();
    const lines = calls.flatMap((text) => text.split('\n'));
    expect(lines).toHaveLength(urls.length + 1);
    const tail = key.slice('svc_test_'.length);
    for (const line of lines) {
      expect(line).not.toContain(tail);
      expect(line).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 12));
    }
    expect(lines.slice(1).map((line) => line.split(' ')[2])).toEqual([
      '/sandbox/clock?api_key=svc_test_[redacted]',
      '/v1/wallets/svc_test_[redacted]',
      '/v1/wallets?key=svc_live_[redacted]',
      '/sandbox/clock?secret=whsec_[redacted]',
      '/sandbox/clock?k=svc%5Ftest%5F[redacted]',
    ]);
  });
});
