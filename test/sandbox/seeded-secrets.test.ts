import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_EPOCH_MS } from '../../src/engine/ids.js';
import { createTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Secrets never come from the seed (decisions: Seeds and reproducibility). A developer that knows
 * the seed and its own key must not be able to sign deliveries that another developer's receiver
 * accepts.
 */
const opened: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});
const seeded = async (seed: string) => {
  const t = await createTestSandbox({ seed });
  opened.push(t);
  return t;
};

const secretOf = async (t: TestSandbox, key = t.key): Promise<string> =>
  (await t.call('GET', '/sandbox/webhook-endpoint', undefined, { key })).body.data.secret;

/**
 * What a secret was when it came from the seeded stream: the block after the one its developer's
 * id was made from, whose position the id's time field gives away (SEED_EPOCH_MS + position).
 */
function derivedFromSeed(seed: string, developerId: string): string {
  const position = Number.parseInt(developerId.replace(/-/g, '').slice(0, 12), 16) - SEED_EPOCH_MS;
  return `whsec_${createHash('sha256')
    .update(`${seed}:${position + 1}`)
    .digest('base64')}`;
}

describe('a seeded sandbox', () => {
  it('keeps its ids seeded but gives every developer a secret that no one can derive from the seed', async () => {
    const [one, two] = await Promise.all([seeded('7'), seeded('7')]);
    expect(one.developerId).toBe(two.developerId);
    const [a1, a2] = await Promise.all(
      [one, two].map(
        async (t) => (await t.call('POST', '/sandbox/developers', { business_name: 'Developer A' })).body.data,
      ),
    );
    expect(a1.developer_id).toBe(a2.developer_id);

    const owners = await Promise.all([secretOf(one), secretOf(two)]);
    expect(owners[0]).not.toBe(owners[1]);
    const others = await Promise.all([secretOf(one, a1.api_key), secretOf(two, a2.api_key)]);
    expect(others[0]).not.toBe(others[1]);
    for (const secret of [...owners, ...others])
      expect(Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);

    const rotated = await Promise.all(
      [one, two].map(
        async (t) => (await t.call('POST', '/sandbox/webhook-endpoint/rotate-secret')).body.data.secret as string,
      ),
    );
    expect(rotated[0]).not.toBe(rotated[1]);
    expect(rotated[0]).not.toBe(owners[0]);
  });

  it("refuses 401 a delivery forged with a secret derived from the seed and an id, to the owner's and another developer's receiver", async () => {
    const t = await seeded('7');
    const attacker = (await t.call('POST', '/sandbox/developers', { business_name: 'Developer A' })).body.data;
    const victim = (await t.call('POST', '/sandbox/developers', { business_name: 'Developer B' })).body.data;
    const forged = JSON.stringify({ amount: 99999999, note: 'FORGED' });
    for (const target of [t.developerId, victim.developer_id]) {
      const now = new Date();
      const signature = new Webhook(derivedFromSeed('7', target)).sign('evt_forged', now, forged);
      const headers = {
        'content-type': 'application/json',
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      };
      const r = await t.call('POST', `/sandbox/receiver/${target}`, forged, { key: null, headers });
      expect([target, r.status, r.body.detail?.code]).toEqual([target, 401, 'UNAUTHORIZED']);
    }
    for (const key of [t.key, attacker.api_key, victim.api_key])
      expect((await t.call('GET', '/sandbox/receiver/events', undefined, { key })).body.data.total).toBe(0);
  });
});
