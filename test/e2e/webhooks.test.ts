import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, useCli, watchOutput, createWalletWithCli } from '../helpers/cli.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

const cli = useCli('each');

describe('webhooks through the built binary', () => {
  it('a receiving app that fails 3 times then answers 200: FAILED → DELIVERED with 4 attempts, all verified', async () => {
    let secret = '';
    const app = await startWebhookApp(
      () => secret,
      (n) => (n <= 3 ? 500 : 200),
    );
    try {
      expect(
        (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--webhook-url', app.url])).exitCode,
      ).toBe(0);
      secret = (await cli.run(['webhooks', 'secret', '--quiet'])).stdout.trim();
      expect(secret).toMatch(/^whsec_/);
      expect((await cli.json(['webhooks', 'endpoint'])).url).toBe(app.url);
      const w = await createWalletWithCli(cli, 'hooked');
      await cli.run(['credit', w, '250000', '--narration', 'salary']);
      await cli.json(['sandbox', 'clock', 'advance', '1s']);
      const [log] = (await cli.json(['webhooks', 'list', '--event-type', 'ledger.credit'])).items;
      expect(log).toMatchObject({ status: 'FAILED', attempt_count: 1, http_status_code: 500 });
      for (const step of ['5s', '5m', '30m']) await cli.json(['sandbox', 'clock', 'advance', step]);
      const done = (await cli.json(['webhooks', 'list', '--event-type', 'ledger.credit'])).items[0];
      expect(done).toMatchObject({ id: log.id, status: 'DELIVERED', attempt_count: 4, http_status_code: 200 });
      expect(app.received.map((r) => [r.status, r.verified, r.id])).toEqual([
        [500, true, log.event_id],
        [500, true, log.event_id],
        [500, true, log.event_id],
        [200, true, log.event_id],
      ]);
      const shown = await cli.run(['webhooks', 'show', log.id]);
      expect(shown.stdout).toContain('Attempts (4)');
      expect(shown.stdout).toContain('failing on purpose (500)');
    } finally {
      await app.close();
    }
  });

  it('failure injection through the CLI, retry --all-failed with --dry-run, and retry of one log', async () => {
    // A manual clock: the scheduled retry 5 s after the first attempt must not run by itself while
    // the commands below are still on their way (on a busy machine that took more than 5 s).
    expect(
      (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--clock', 'manual'])).exitCode,
    ).toBe(0);
    expect((await cli.run(['sandbox', 'receiver', 'fail', '--status', '500', '--times', '2'])).stdout).toBe(
      'The built-in receiver answers 500 to the next 2 deliveries.\n',
    );
    const w = await createWalletWithCli(cli, 'inject');
    await cli.run(['credit', w, '1000']);
    await cli.json(['sandbox', 'clock', 'advance', '1s']);
    const dry = await cli.run(['webhooks', 'retry', '--all-failed', '--dry-run', '--quiet']);
    const [id] = dry.stdout.trim().split('\n');
    expect((await cli.json(['webhooks', 'list', '--status', 'FAILED'])).items.map((l: { id: string }) => l.id)).toEqual(
      [id],
    );
    const retried = await cli.json(['webhooks', 'retry', '--all-failed']);
    expect(retried.items).toEqual([expect.objectContaining({ id, status: 'FAILED', attempt_count: 2 })]);
    await cli.run(['sandbox', 'receiver', 'reset']);
    const one = await cli.json(['webhooks', 'retry', id!]);
    expect(one.items[0]).toMatchObject({ status: 'DELIVERED', attempt_count: 3 });
    const again = await cli.run(['webhooks', 'retry', id!]);
    expect([again.exitCode, again.stderr]).toEqual([
      1,
      'Error [WEBHOOK_NOT_RETRYABLE]: a DELIVERED delivery cannot be retried: only FAILED or DEAD ones (request req_00000014)\n',
    ]);
    const events = (await cli.json(['sandbox', 'receiver', 'events'])).items;
    expect(
      events.map((e: { response_status: number; signature_valid: boolean }) => [e.response_status, e.signature_valid]),
    ).toEqual([
      [500, true],
      [500, true],
      [200, true],
    ]);
  });

  it('webhooks tail --json prints one JSON object per line until Ctrl-C', async () => {
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
    const w = await createWalletWithCli(cli, 'tail');
    const tail = execa(process.execPath, [BIN, 'webhooks', 'tail', '--json'], {
      cwd: cli.dir,
      env: cleanEnv(),
      extendEnv: false,
      reject: false,
    });
    const output = watchOutput(tail.stdout);
    await watchOutput(tail.stderr).waitFor(/Following webhook delivery attempts/);
    await cli.run(['credit', w, '777']);
    await cli.json(['sandbox', 'clock', 'advance', '1s']);
    const [line] = await output.waitFor(/^.*"status":"DELIVERED".*$/m);
    tail.kill('SIGINT');
    const ended = await tail;
    expect(ended.exitCode).toBe(0);
    const lines = output
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.every((l: { id: string; event_type: string }) => l.id && l.event_type)).toBe(true);
    expect(JSON.parse(line!)).toMatchObject({
      event_type: 'ledger.credit',
      status: 'DELIVERED',
      payload: { data: { amount: 777 } },
    });
  });

  it('1,000 credits, then stop and start: each credit’s event is delivered exactly once', async () => {
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0'])).exitCode).toBe(0);
    const { LEDGER_BASE_URL: base, LEDGER_API_KEY: key } = await cli.json(['sandbox', 'env']);
    const w = await cli.json([
      'wallets',
      'create',
      '--customer-reference',
      'bulk',
      '--first-name',
      'B',
      '--last-name',
      'K',
      '--email',
      'b@k.ng',
    ]);
    for (let i = 0; i < 1000; i++) {
      const r = await fetch(`${base}/sandbox/inbound-transfers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ account_number: w.account_number, amount: 100 + i, narration: `salary part ${i}` }),
      });
      expect(r.status).toBe(200);
    }
    expect((await cli.run(['sandbox', 'stop'])).exitCode).toBe(0);
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0'])).exitCode).toBe(0);
    await cli.json(['sandbox', 'clock', 'advance', '1s']);
    expect((await cli.json(['webhooks', 'list', '--status', 'DELIVERED', '--limit', '1'])).total).toBe(1000);
    const received = new Map<string, number>();
    for (let page = 1; page <= 11; page++) {
      for (const e of (await cli.json(['sandbox', 'receiver', 'events', '--limit', '100', '--page', String(page)]))
        .items) {
        expect(e.signature_valid).toBe(true);
        received.set(e.webhook_id, (received.get(e.webhook_id) ?? 0) + 1);
      }
    }
    expect(received.size).toBe(1000);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
    expect((await cli.json(['wallets', 'get', w.id])).balance).toBe(1000 * 100 + (999 * 1000) / 2);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    // About 2,000 requests and processes one after another: on a busy 2-core machine more than 30 s.
  }, 120_000);
});
