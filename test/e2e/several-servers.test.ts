import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { expect, onTestFinished, test } from 'vitest';
import { createTestDatabase } from '../helpers/postgres.js';
import { createCli } from '../helpers/cli.js';

// Until `sandbox start --database` exists, each server is the built startServer() in a process of its own.
const SERVER = pathToFileURL(resolve('dist/sandbox/server.js')).href;

async function startProcess(url: string, knownKey?: string): Promise<{ child: ResultPromise; baseUrl: string; apiKey: string }> {
  const script = `import { startServer } from ${JSON.stringify(SERVER)};
    const s = await startServer({ dbPath: ${JSON.stringify(url)}, host: '127.0.0.1', port: 0, knownKey: ${JSON.stringify(knownKey)}, webhookTimeoutSeconds: 2, webhookLeaseSeconds: 4, log: () => {} });
    console.log(JSON.stringify({ baseUrl: s.baseUrl, apiKey: s.apiKey }));`;
  const child = execa('node', ['--input-type=module', '-e', script], { reject: false });
  onTestFinished(() => void child.kill('SIGKILL'));
  const line = await new Promise<string>((done, fail) => {
    child.stdout!.once('data', (chunk: Buffer) => done(chunk.toString()));
    void child.then((r) => fail(new Error(`server exited: ${r.stderr}`)));
  });
  return { child, ...(JSON.parse(line) as { baseUrl: string; apiKey: string }) };
}

test('two server processes on one database, one killed with SIGKILL under load: nothing acknowledged is lost, every delivery arrives once, the audit is clean', async () => {
  const database = await createTestDatabase();
  onTestFinished(database.drop);
  const a = await startProcess(database.url);
  const b = await startProcess(database.url, a.apiKey);
  const counts = new Map<string, number>();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  onTestFinished(() => void receiver.close());
  const call = async (base: string, method: string, path: string, body?: unknown, key?: string) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': a.apiKey, ...(body ? { 'content-type': 'application/json' } : {}), ...(key ? { 'idempotency-key': key } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, text: await response.text() };
  };
  expect((await call(a.baseUrl, 'PUT', '/sandbox/webhook-endpoint', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` })).status).toBe(200);
  const wallets: { id: string; account_number: string }[] = [];
  for (const i of [1, 2]) {
    const created = JSON.parse((await call(a.baseUrl, 'POST', '/v1/wallets', { customer_reference: `e2e-${i}`, first_name: 'Ada', last_name: 'Obi', email: `a${i}@example.com` })).text).data;
    await call(a.baseUrl, 'POST', '/sandbox/inbound-transfers', { account_number: created.account_number, amount: 10_000_000, narration: 'salary' });
    wallets.push(created);
  }
  // The same key to both at once: one transfer.
  const same = await Promise.all([a, b].map((s) => call(s.baseUrl, 'POST', `/v1/wallets/${wallets[0]!.id}/transfer`, { destination_account_number: wallets[1]!.account_number, amount: 1_000 }, 'same')));
  expect(same[0]!.text).toBe(same[1]!.text);
  // A payout on B that falls due (2 s) after B is killed: A settles it.
  const payout = await call(b.baseUrl, 'POST', `/v1/wallets/${wallets[0]!.id}/transfer`, { destination_account_number: '0123456785', destination_bank_code: '058', amount: 5_000 });
  expect(payout.status).toBe(200);

  let acknowledged = 1_000;
  let sent = 0;
  const worker = async () => {
    for (let i = sent++; i < 200; i = sent++) {
      const target = i % 2 === 0 ? a : b;
      const answer = await call(target.baseUrl, 'POST', `/v1/wallets/${wallets[0]!.id}/transfer`, { destination_account_number: wallets[1]!.account_number, amount: 100 }, `t-${i}`).catch(() => undefined);
      if (answer?.status === 200) acknowledged += 100;
      if (i === 100) b.child.kill('SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const balance = async (id: string) => JSON.parse((await call(a.baseUrl, 'GET', `/v1/wallets/${id}`)).text).data.balance;
  // Everything acknowledged is in the books, by either server.
  expect(await balance(wallets[1]!.id)).toBe(10_000_000 + acknowledged);

  // The survivor settles the payout and takes over B's deliveries once their lease has passed.
  const cli = createCli({ LEDGER_BASE_URL: a.baseUrl, LEDGER_API_KEY: a.apiKey });
  for (let tries = 0; ; tries++) {
    const waiting = JSON.parse((await call(a.baseUrl, 'GET', '/v1/webhook-logs?status=PENDING,FAILED&limit=1')).text).data.total;
    const settled = JSON.parse((await call(a.baseUrl, 'GET', `/v1/transactions/${JSON.parse(payout.text).data.transaction_id}`)).text).data.status === 'SETTLED';
    if (waiting === 0 && settled) break;
    expect(tries).toBeLessThan(60);
    await new Promise((done) => setTimeout(done, 500));
  }
  const logs = JSON.parse((await call(a.baseUrl, 'GET', '/v1/webhook-logs?limit=1')).text).data.total;
  expect(counts.size).toBe(logs);
  // At most the deliveries B had out as it died may arrive twice (the endpoint may have had them).
  expect([...counts.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(8);
  const audit = await cli.run(['sandbox', 'audit']);
  expect(audit.exitCode).toBe(0);
}, 120_000);
