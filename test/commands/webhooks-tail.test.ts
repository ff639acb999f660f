import { describe, expect, it, vi } from 'vitest';
import { runTail } from '../../src/commands/webhooks/tail.js';
import { captureIo } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ scope: 'all', listen: true });

describe('webhooks tail at a wide terminal', () => {
  it('the wallet column shows the end of the id, which tells wallets apart', async () => {
    // UUIDv7 ids start with the time: wallets made in one minute share their first characters.
    const person = captureIo(
      {},
      { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, columns: 120, env: { NO_COLOR: '1' } },
    );
    const stop = new AbortController();
    const tailing = runTail(person.io, { signal: stop.signal });
    await vi.waitFor(() => expect(person.stderr()).toContain('Following webhook delivery attempts'));
    const ada = await createWallet(t, 1_000);
    const bola = await createWallet(t, 2_000);
    expect(ada.id.slice(0, 8)).toBe(bola.id.slice(0, 8));
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
    await vi.waitFor(() =>
      expect(
        person
          .stdout()
          .split('\n')
          .filter((line) => line.includes('ledger.credit')),
      ).toHaveLength(2),
    );
    stop.abort();
    await tailing;
    const credits = person
      .stdout()
      .split('\n')
      .filter((line) => line.includes('ledger.credit'));
    expect(credits[0]).toMatch(
      new RegExp(`ledger\\.credit {7}…${ada.id.slice(-7)} {2}1000 \\(₦10\\.00\\) +DELIVERED {2}#1 {2}HTTP 200$`),
    );
    expect(credits[1]).toMatch(
      new RegExp(`ledger\\.credit {7}…${bola.id.slice(-7)} {2}2000 \\(₦20\\.00\\) +DELIVERED {2}#1 {2}HTTP 200$`),
    );
  });
});
