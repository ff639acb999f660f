import { describe, expect, it, vi } from 'vitest';
import { createWallet, expectCleanAudit, useSandbox } from '../helpers/sandbox.js';

// Listening, so the dispatcher's attempts reach the built-in receiver, which keeps what it got.
const t = useSandbox({ listen: true });

/** A dashboard session, logged in with a one-time link as a browser would. */
async function login(): Promise<string> {
  const { url } = (await t.call('POST', '/sandbox/dashboard/links')).body.data;
  // Asked through inject, the link names no port: it is followed on the listening server.
  const { pathname, search } = new URL(url);
  const response = await fetch(`${t.baseUrl}${pathname}${search}`, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return String(response.headers.get('set-cookie')).split(';')[0]!;
}

describe('a webhook delivery in the dashboard', () => {
  it("shows the signature headers each attempt carried, as the built-in receiver got them, and only that delivery's", async () => {
    const cookie = await login();
    await createWallet(t, 70_000);
    await createWallet(t, 20_000);
    const deliveries = (await t.call('GET', '/v1/webhook-logs?limit=100')).body.data.items;
    expect(deliveries.length).toBeGreaterThan(1);
    const delivery = deliveries[0];
    // The test sandbox's clock is manual: a step of it lets the dispatcher send what is due.
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
    await vi.waitFor(async () =>
      expect((await t.call('GET', '/sandbox/receiver/events')).body.data.total).toBe(deliveries.length),
    );
    const got = await t.call('GET', `/sandbox/receiver/events?webhook_id=${delivery.event_id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.total).toBe(1);
    const [arrival] = got.body.data.items;
    expect(arrival).toMatchObject({ webhook_id: delivery.event_id, signature_valid: true, response_status: 200 });
    expect(arrival.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect((await t.call('GET', '/sandbox/receiver/events?webhook_id=evt_none')).body.data).toMatchObject({
      items: [],
      total: 0,
    });
    const page = await (await fetch(`${t.baseUrl}/webhooks/${delivery.id}`, { headers: { cookie } })).text();
    expect(page).toContain('Signature headers as the built-in receiver got them');
    expect(page).toContain(arrival.headers['webhook-signature']);
    expect(page).toContain(`<td>${arrival.headers['webhook-timestamp']}</td>`);
    // Another delivery's signature is not on this one's page.
    const other = (await t.call('GET', `/sandbox/receiver/events?webhook_id=${deliveries[1].event_id}`)).body.data
      .items[0];
    expect(page).not.toContain(other.headers['webhook-signature']);
    await expectCleanAudit(t);
  });
});
