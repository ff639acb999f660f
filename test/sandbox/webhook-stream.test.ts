import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/http.js';
import { createTestSandbox, createWallet, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeEach(async () => {
  t = await createTestSandbox({ listen: true });
});
afterEach(() => t.close());

const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds });

/** Follows the stream with a key; `next()` resolves with the next event's data, in order. */
async function follow(key: string) {
  const received: any[] = [];
  const waiting: ((event: any) => void)[] = [];
  const controller = new AbortController();
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const done = new ApiClient(t.baseUrl!, key).stream(
    '/sandbox/webhook-logs/stream',
    {
      onOpen: opened,
      onEvent: (event) => {
        expect(event.event).toBe('attempt');
        const data = JSON.parse(event.data);
        const waiter = waiting.shift();
        if (waiter) waiter(data);
        else received.push(data);
      },
    },
    controller.signal,
  );
  await open;
  return {
    next: () =>
      received.length ? Promise.resolve(received.shift()) : new Promise<any>((resolve) => waiting.push(resolve)),
    pending: () => received.length,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

describe('GET /sandbox/webhook-logs/stream', () => {
  it('sends one attempt event per delivery attempt, with the log as it stood after it and the attempt itself', async () => {
    const stream = await follow(t.key);
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 1 });
    const w = await createWallet(t, 70_000);
    await advance(1);
    const first = await stream.next();
    expect(first.log).toMatchObject({
      event_type: 'ledger.credit',
      status: 'FAILED',
      attempt_count: 1,
      http_status_code: 500,
      payload: { data: { wallet_id: w.id, amount: 70_000 } },
    });
    // Each attempt at the time it fell due: the credit's, then 5 s later (the advance walks through it).
    expect(first.attempt).toMatchObject({
      attempt_number: 1,
      manual: false,
      http_status_code: 500,
      created_at: '2026-11-21T09:30:00.000Z',
    });
    await advance(5);
    const second = await stream.next();
    expect(second.log).toMatchObject({
      id: first.log.id,
      status: 'DELIVERED',
      attempt_count: 2,
      http_status_code: 200,
    });
    expect(second.attempt).toMatchObject({
      attempt_number: 2,
      http_status_code: 200,
      created_at: '2026-11-21T09:30:05.000Z',
    });
    await stream.stop();
  });

  it('shows only the caller’s deliveries, and nothing from before it connected', async () => {
    await createWallet(t, 1_000);
    await advance(1);
    const stream = await follow(t.key);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data;
    const theirs = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'o', first_name: 'O', last_name: 'T', email: 'o@t.ng' },
        { key: other.api_key },
      )
    ).body.data;
    await t.call(
      'POST',
      '/sandbox/inbound-transfers',
      { account_number: theirs.account_number, amount: 300 },
      { key: other.api_key },
    );
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 }, { key: other.api_key });
    const theirLogs = (await t.call('GET', '/v1/webhook-logs?status=DELIVERED', undefined, { key: other.api_key })).body
      .data.items;
    expect(theirLogs.length).toBeGreaterThan(0);
    const mine = await createWallet(t, 2_000);
    await advance(1);
    const event = await stream.next();
    expect(event.log.payload.data).toMatchObject({ wallet_id: mine.id, amount: 2_000 });
    expect(stream.pending()).toBe(0);
    await stream.stop();
  });

  it('a stream ends with 401 UNAUTHORIZED once the key that opened it is rotated away, and sends nothing more', async () => {
    const events: string[] = [];
    let eventCame!: (value: string) => void;
    const came = new Promise<string>((resolve) => (eventCame = resolve));
    const controller = new AbortController();
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const oldKey = t.key;
    const ended = new ApiClient(t.baseUrl!, oldKey)
      .stream(
        '/sandbox/webhook-logs/stream',
        {
          onOpen: opened,
          onEvent: (event) => {
            events.push(event.data);
            eventCame('an event after the rotation');
          },
        },
        controller.signal,
      )
      .then(
        () => 'ended without a reason',
        (error: unknown) => error,
      );
    await open;
    t.key = (await t.call('POST', '/sandbox/keys/rotate')).body.data.api_key;
    expect((await t.call('GET', '/sandbox/clock', undefined, { key: oldKey })).status).toBe(401);
    const current = await follow(t.key);
    const w = await createWallet(t, 4_242);
    await advance(1);
    // A stream of the current key carries this delivery; the old key's stream must not.
    expect((await current.next()).log.payload.data).toMatchObject({ wallet_id: w.id, amount: 4_242 });
    expect(await Promise.race([ended, came])).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'API key is invalid or has been rotated',
    });
    expect(events).toEqual([]);
    controller.abort();
    await current.stop();
  });

  it("a stream open across a snapshot restore carries the restored sandbox's attempts", async () => {
    // The restore takes attempts away: the stream must not wait for attempt numbers past the ones it restored.
    await createWallet(t, 1_000);
    await advance(1);
    expect((await t.call('POST', '/sandbox/snapshots', { name: 'before' })).status).toBe(200);
    const stream = await follow(t.key);
    for (const amount of [2_000, 3_000]) {
      await createWallet(t, amount);
      await advance(1);
      expect((await stream.next()).log.payload.data).toMatchObject({ amount });
    }
    expect((await t.call('POST', '/sandbox/snapshots/before/restore')).status).toBe(200);
    const after = await createWallet(t, 4_000);
    await advance(1);
    expect((await stream.next()).log.payload.data).toMatchObject({ wallet_id: after.id, amount: 4_000 });
    await stream.stop();
  });

  it("after a restore the stream goes on from the restored state's last attempt", async () => {
    // The snapshot holds more attempts than the stream has seen; none of its old ones is sent as new.
    expect((await t.call('POST', '/sandbox/snapshots', { name: 'empty' })).status).toBe(200);
    for (const amount of [1_000, 2_000, 3_000]) {
      await createWallet(t, amount);
      await advance(1);
    }
    expect((await t.call('POST', '/sandbox/snapshots', { name: 'busy' })).status).toBe(200);
    expect((await t.call('POST', '/sandbox/snapshots/empty/restore')).status).toBe(200);
    const stream = await follow(t.key);
    expect((await t.call('POST', '/sandbox/snapshots/busy/restore')).status).toBe(200);
    const after = await createWallet(t, 4_000);
    await advance(1);
    expect((await stream.next()).log.payload.data).toMatchObject({ wallet_id: after.id, amount: 4_000 });
    expect(stream.pending()).toBe(0);
    await stream.stop();
  });

  it('needs a key and refuses unknown query parameters, in the documented shape', async () => {
    const anonymous = await fetch(`${t.baseUrl}/sandbox/webhook-logs/stream`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ success: false, detail: { code: 'UNAUTHORIZED' } });
    const odd = await t.call('GET', '/sandbox/webhook-logs/stream?since=0');
    expect(odd.status).toBe(400);
    expect(odd.body.detail.code).toBe('VALIDATION_ERROR');
  });
});

describe('HEAD /sandbox/webhook-logs/stream', () => {
  it('answers with the headers of a stream and ends', async () => {
    const head = await fetch(`${t.baseUrl}/sandbox/webhook-logs/stream`, {
      method: 'HEAD',
      headers: { 'x-api-key': t.key },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await head.text()).toBe('');
  });
});
