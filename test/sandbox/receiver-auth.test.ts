import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

/** The built-in receiver takes only deliveries signed for its developer (decisions: Webhooks). */
const t = useSandbox();
let secret: string;
beforeEach(async () => {
  secret = (await t.call('GET', '/sandbox/webhook-endpoint')).body.data.secret;
});

const body = JSON.stringify({ event_id: 'evt_1', event_type: 'ledger.credit', data: { amount: 1 } });

function signed(withSecret = secret, at = new Date(), id = 'evt_1', payload = body): Record<string, string> {
  const signature = new Webhook(withSecret).sign(id, at, payload);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

const post = (headers: Record<string, string>, payload = body, developerId = t.developerId) =>
  t.call('POST', `/sandbox/receiver/${developerId}`, payload, { key: null, headers });
const received = async () => (await t.call('GET', '/sandbox/receiver/events')).body.data.total as number;
const rows = async () =>
  Number(
    (
      await t.sandbox.db
        .selectFrom('receiver_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the built-in receiver', () => {
  it('keeps a delivery signed with the developer’s secret', async () => {
    const r = await post(signed());
    expect([r.status, r.body]).toEqual([200, { received: true, signature_valid: true }]);
    expect(await received()).toBe(1);
  });

  it('answers 401 in the documented shape to anything unsigned or wrongly signed, and keeps none of it', async () => {
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data;
    const otherSecret = (await t.call('GET', '/sandbox/webhook-endpoint', undefined, { key: other.api_key })).body.data
      .secret;
    const attempts: [string, Record<string, string>, string?, string?][] = [
      ['no signature headers', { 'content-type': 'application/json' }],
      ['another developer’s secret', signed(otherSecret)],
      ['a body other than the signed one', signed(), body.replace('1', '2')],
      ['a timestamp more than five minutes old', signed(secret, new Date(Date.now() - 10 * 60_000))],
      ['garbage in the signature header', { ...signed(), 'webhook-signature': 'v1,AAAA' }],
      ['a developer id that does not exist', signed(), body, '00000000-0000-4000-8000-000000000000'],
    ];
    for (const [what, headers, payload, developerId] of attempts) {
      const r = await post(headers, payload ?? body, developerId);
      expect([what, r.status, r.body.success, r.body.detail?.code]).toEqual([what, 401, false, 'UNAUTHORIZED']);
    }
    expect(await rows()).toBe(0);
  });

  it('does not let an unsigned post use up an injected failure', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 503, count: 1 });
    for (let i = 0; i < 5; i++) expect((await post({ 'content-type': 'application/json' })).status).toBe(401);
    expect((await t.call('GET', '/sandbox/receiver/behaviour')).body.data).toEqual({ status: 503, remaining: 1 });
    expect((await post(signed())).status).toBe(503);
    expect((await post(signed(secret, new Date(), 'evt_2'))).status).toBe(200);
  });

  it('never stores credentials sent along with a delivery', async () => {
    await post({ ...signed(), 'x-api-key': t.key, authorization: 'Bearer secret-token', cookie: 'session=1' });
    const [event] = (await t.call('GET', '/sandbox/receiver/events')).body.data.items;
    expect(Object.keys(event.headers)).toEqual(
      expect.arrayContaining(['webhook-id', 'webhook-signature', 'content-type']),
    );
    expect(event.headers).not.toHaveProperty('x-api-key');
    expect(event.headers).not.toHaveProperty('authorization');
    expect(event.headers).not.toHaveProperty('cookie');
    const stored = await t.sandbox.db.selectFrom('receiver_events').select('headers').execute();
    expect(JSON.stringify(stored)).not.toContain(t.key);
    expect(JSON.stringify(stored)).not.toContain('secret-token');
  });

  it('keeps its body limit', async () => {
    const large = JSON.stringify({ pad: 'x'.repeat(70 * 1024) });
    const r = await post(signed(secret, new Date(), 'evt_big', large), large);
    expect([r.status, r.body.detail.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await rows()).toBe(0);
  });

  it('accepts the previous secret while its overlap lasts', async () => {
    const old = secret;
    await t.call('POST', '/sandbox/webhook-endpoint/rotate-secret');
    expect((await post(signed(old))).status).toBe(200);
  });
});

it('the receiver’s developer id in the URL is not a way to grow the database: 1,000 unsigned posts leave no row', async () => {
  for (let i = 0; i < 1000; i++)
    await post(
      { 'content-type': 'application/json', 'webhook-id': `x${i}` },
      body,
      i % 2 ? t.developerId : `stranger-${i}`,
    );
  expect(await rows()).toBe(0);
  // Nor a way to grow the sandbox's memory: a stranger's id gets no clock, no delivery lane.
  expect(t.sandbox.developerIds()).toEqual([t.developerId]);
});
