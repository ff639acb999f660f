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
    const server = await openServer({ dbPath: ':memory:', seed: 'log', clockStart: T0, log: () => {}, logRequest: (text) => calls.push(text) });
    const headers = { 'x-api-key': server.apiKey };
    await Promise.all(Array.from({ length: 5 }, () => server.app.inject({ method: 'GET', url: '/sandbox/health', headers })));
    await server.app.inject({ method: 'GET', url: '/v1/wallets/nope', headers });
    // Closed in the same turn as the last answer: its line is still waiting, and close writes it.
    await server.close();
    const lines = calls.flatMap((text) => text.split('\n'));
    expect(lines).toHaveLength(6);
    expect(lines.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z GET \/sandbox\/health 200 \d+\.\dms$/)));
    expect(lines[5]).toMatch(/^\S+ GET \/v1\/wallets\/nope 404 \d+\.\dms$/);
    // Several lines to a write: fewer writes than requests.
    expect(calls.length).toBeLessThan(6);
  });
});
