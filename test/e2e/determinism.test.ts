import { describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { closedPort, createCli } from '../helpers/cli.js';

/**
 * The same commands against `--seed 7` give byte-identical `--json` output and webhook bodies, run
 * after run (decisions: Seeds and reproducibility). Each run is its own sandbox process on the same
 * port (the port is part of the data: the built-in receiver's URL and the `host` header it records),
 * with a fixed key.
 */
const KEY = `svc_test_${'Determinism'.padEnd(32, '0')}`;
const GTB = makeNuban('058', '012345678');

/** The documented exception: the real-time webhook-timestamp header, and the signature made over it. */
function withoutTimestamps(events: { items: { headers: Record<string, string> }[] }) {
  for (const item of events.items) {
    delete item.headers['webhook-timestamp'];
    delete item.headers['webhook-signature'];
  }
  return JSON.stringify(events, null, 2);
}

interface Run {
  outputs: { command: string; stdout: string }[];
  bodies: string[];
}

/** 40 commands covering every flow; each one's --json output is kept exactly as printed. */
async function scenario(seed: string, port: number): Promise<Run> {
  const cli = createCli();
  const outputs: Run['outputs'] = [];
  const json = async (args: string[]) => {
    const r = await cli.run([...args, '--json']);
    if (r.exitCode !== 0) throw new Error(`ledger ${args.join(' ')} failed (${r.exitCode}): ${r.stderr}`);
    outputs.push({ command: args.join(' '), stdout: r.stdout });
    return JSON.parse(r.stdout);
  };
  try {
    const started = await cli.run([
      'sandbox',
      'start',
      '--detach',
      '--memory',
      '--port',
      String(port),
      '--seed',
      seed,
      '--api-key',
      KEY,
    ]);
    expect(started.exitCode, started.stderr).toBe(0);
    await json(['sandbox', 'clock']);
    await json(['sandbox', 'keys']);
    const ada = (
      await json([
        'wallets',
        'create',
        '--customer-reference',
        'ada',
        '--first-name',
        'Ada',
        '--last-name',
        'Obi',
        '--email',
        'ada@example.com',
      ])
    ).id;
    const bola = await json([
      'wallets',
      'create',
      '--customer-reference',
      'bola',
      '--first-name',
      'Bola',
      '--last-name',
      'Ade',
      '--email',
      'bola@example.com',
    ]);
    const savings = (
      await json([
        'wallets',
        'create',
        '--customer-reference',
        'ada-savings',
        '--first-name',
        'Ada',
        '--last-name',
        'Savings',
        '--email',
        'ada.s@example.com',
      ])
    ).id;
    await json(['credit', ada, '500000', '--narration', 'Salary for May']);
    const held = (await json(['credit', ada, '70000', '--narration', 'asdfgh'])).suspense_item.id;
    await json(['suspense', 'list']);
    await json([
      'suspense',
      'resolve',
      held,
      '--action',
      'CREDIT_WALLET',
      '--target-wallet',
      ada,
      '--note',
      'customer confirmed',
      '--yes',
    ]);
    await json(['transfer', ada, bola.account_number, '150000', '--narration', 'Rent share']);
    await json(['banks', 'resolve', '1111111111', '058']);
    const failing = (await json(['transfer', ada, '1111111111', '100000', '--bank', '058', '--yes'])).transaction_id;
    await json(['transfer', ada, GTB, '50000', '--bank', '058', '--narration', 'Supplier', '--yes']);
    const held2 = (await json(['transfer', ada, '2222222222', '10000', '--bank', '044', '--yes'])).transaction_id;
    await json(['sandbox', 'payouts', 'settle', held2]);
    await json(['sandbox', 'receiver', 'fail', '--status', '500', '--times', '2']);
    await json(['sandbox', 'clock', 'advance', '2s']);
    await json(['transactions', 'get', failing]);
    await json(['transactions', 'list', ada]);
    const failed = await json(['webhooks', 'list', '--status', 'FAILED']);
    expect(failed.total).toBe(2);
    await json(['sandbox', 'clock', 'advance', '5s']);
    await json(['webhooks', 'show', failed.items[0].id]);
    await json(['sandbox', 'receiver', 'fail', '--status', '503', '--times', '1']);
    const agent = (
      await json([
        'agents',
        'create',
        ada,
        '--name',
        'To savings',
        '--trigger',
        'BALANCE_ABOVE',
        '--threshold',
        '1000000',
        '--action',
        'SWEEP',
        '--destination',
        savings,
      ])
    ).id;
    await json(['credit', ada, '700000', '--narration', 'salary']);
    await json(['sandbox', 'clock', 'advance', '1s']);
    const retried = (await json(['webhooks', 'list', '--status', 'FAILED'])).items[0].id;
    await json(['webhooks', 'retry', retried]);
    await json(['agents', 'list']);
    await json(['agents', 'runs', agent]);
    await json(['wallets', 'get', savings]);
    await json(['wallets', 'close', bola.id]);
    const closed = (await json(['credit', bola.id, '2500'])).suspense_item.id;
    await json(['suspense', 'resolve', closed, '--action', 'DISMISS', '--note', 'wallet closed', '--yes']);
    await json(['sandbox', 'clock', 'advance', '5m']);
    await json(['webhooks', 'list', '--event-type', 'ledger.credit', '--limit', '100']);
    await json(['sandbox', 'audit']);
    await json(['wallets', 'list']);
    await json(['transactions', 'list', savings]);
    const events = await json(['sandbox', 'receiver', 'events', '--limit', '100']);
    outputs[outputs.length - 1]!.stdout = withoutTimestamps(events);
    expect(outputs).toHaveLength(40);
    return { outputs, bodies: events.items.map((e: { body: string }) => e.body) };
  } finally {
    await cli.run(['sandbox', 'stop']);
    cli.cleanup();
  }
}

describe('--seed 7, twice, in two sandbox processes', () => {
  it('gives byte-identical --json output for all 40 commands and identical webhook bodies; --seed 8 gives other output', async () => {
    const port = await closedPort();
    const first = await scenario('7', port);
    // The same port again for the second run; the other seed's run beside it needs its own.
    let otherPort = await closedPort();
    while (otherPort === port) otherPort = await closedPort();
    const [second, other] = await Promise.all([scenario('7', port), scenario('8', otherPort)]);
    for (const [i, output] of first.outputs.entries()) expect(second.outputs[i], output.command).toEqual(output);
    expect(first.bodies.length).toBeGreaterThan(15);
    expect(second.bodies).toEqual(first.bodies);
    // The manual clock started at 2026-01-01T00:00:00Z and moved only with `clock advance`.
    expect(JSON.parse(first.outputs[0]!.stdout)).toEqual({ now: '2026-01-01T00:00:00.000Z', offset_seconds: 0 });

    // Every output that holds an id (or an account number, reference or secret beside it) changes with
    // the seed; those without one (the clock, the audit, a name enquiry) do not.
    const differing = other.outputs.flatMap((output, i) => (output.stdout !== first.outputs[i]!.stdout ? [i] : []));
    const withIds = first.outputs.flatMap((output, i) =>
      /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/.test(output.stdout) ? [i] : [],
    );
    expect(withIds.length).toBeGreaterThan(25);
    expect(differing).toEqual(withIds);
    expect(other.bodies).toHaveLength(first.bodies.length);
    for (const [i, body] of other.bodies.entries()) expect(body).not.toBe(first.bodies[i]);
  }, 300_000);
});
