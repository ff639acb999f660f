import Database from 'better-sqlite3';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { typeCode } from '../../src/engine/events/stored.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { BIN, cleanEnv, closedPort } from '../helpers/cli.js';

type Kind = 'credit' | 'internal' | 'external' | 'resolve';
interface Op {
  n: number;
  kind: Kind;
  key: string;
  method: string;
  path: string;
  body: Record<string, unknown>;
  tag: string;
}
interface Outcome {
  op: Op;
  status: number;
  body: any;
}

export interface ChaosReport {
  kills: number;
  operations: number;
  succeeded: number;
  refused: number;
  duplicateDeliveries: number;
  problems: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small deterministic PRNG, so a failing run can be replayed with its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

class SandboxProcess {
  child: ChildProcess | undefined;
  key = '';
  constructor(
    readonly dir: string,
    readonly dbPath: string,
    readonly port: number,
  ) {}

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [BIN, 'sandbox', 'start', '--db', this.dbPath, '--port', String(this.port), '--settlement-delay', '1'],
      {
        cwd: this.dir,
        env: cleanEnv({ LEDGER_HOME: this.dir }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('Press Ctrl-C')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code} before it was ready: ${err}`)));
    });
    child.stdout!.resume();
    this.key = (JSON.parse(readFileSync(join(this.dir, 'sandbox.json'), 'utf8')) as { api_key: string }).api_key;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

/**
 * Runs mixed load from several clients against a sandbox that is killed with SIGKILL `kills` times,
 * checking after every restart that nothing acknowledged was lost, duplicated or half-written.
 */
export async function runChaos(options: {
  kills: number;
  clients?: number;
  seed?: number;
  log?: (line: string) => void;
}): Promise<ChaosReport> {
  const rng = random(options.seed ?? 20261121);
  const dir = mkdtempSync(join(tmpdir(), 'ledger-chaos-'));
  const port = await closedPort();
  const base = `http://127.0.0.1:${port}`;
  const sandbox = new SandboxProcess(dir, join(dir, 'chaos.db'), port);
  const problems: string[] = [];
  const outcomes: Outcome[] = [];
  const held: string[] = [];
  let n = 0;
  let running = true;
  /** While set, clients wait before their next operation, so a verification checks a settled batch. */
  let paused: Promise<void> | undefined;
  const log = options.log ?? (() => {});

  async function send(method: string, path: string, body?: unknown, key?: string) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'x-api-key': sandbox.key,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return {
      status: response.status,
      body: (await response.json()) as any,
      replayed: response.headers.get('idempotent-replayed'),
    };
  }

  /** Sends until the answer is definitive: a network error or IN_USE means "unknown", so the same key is sent again. */
  async function settle(op: Op) {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 600) throw new Error(`no definitive answer for ${op.key} after ${attempt} tries`);
      try {
        const r = await send(op.method, op.path, op.body, op.key);
        if (r.status === 409 && r.body.detail?.code === 'IDEMPOTENCY_KEY_IN_USE') {
          await sleep(20);
          continue;
        }
        return r;
      } catch {
        await sleep(50);
      }
    }
  }

  await sandbox.start();
  log('started');
  const wallets: { id: string; account_number: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const op: Op = {
      n: -1,
      kind: 'credit',
      key: `setup-wallet-${i}`,
      method: 'POST',
      path: '/v1/wallets',
      body: { customer_reference: `chaos-${i}`, first_name: 'Chaos', last_name: `W${i}`, email: `c${i}@x.ng` },
      tag: '',
    };
    wallets.push((await settle(op)).body.data);
  }
  await settle({
    n: -1,
    kind: 'credit',
    key: 'setup-agent',
    method: 'POST',
    path: `/v1/wallets/${wallets[0]!.id}/agents`,
    body: {
      name: 'chaos sweep',
      trigger: 'ON_CREDIT_AMOUNT_ABOVE',
      threshold: 50_000,
      action: 'PARTIAL_SWEEP',
      destination_wallet_id: wallets[1]!.id,
      sweep_amount: 10_000,
    },
    tag: '',
  });

  function nextOp(): Op {
    const i = ++n;
    const tag = `chaos-${i}`;
    const roll = rng.next();
    const from = rng.pick(wallets);
    if (roll < 0.15 && held.length > 0) {
      const item = held.splice(rng.int(0, held.length - 1), 1)[0]!;
      const body =
        rng.next() < 0.5
          ? { action: 'CREDIT_WALLET', target_wallet_id: wallets[2]!.id, note: tag }
          : { action: 'DISMISS', note: tag };
      return { n: i, kind: 'resolve', key: `op-${i}`, method: 'POST', path: `/v1/suspense/${item}/resolve`, body, tag };
    }
    if (roll < 0.6) {
      const narration = rng.next() < 0.15 ? 'asdfgh' : `salary ${tag}`;
      return {
        n: i,
        kind: 'credit',
        key: `op-${i}`,
        method: 'POST',
        path: '/sandbox/inbound-transfers',
        body: {
          account_number: from.account_number,
          amount: rng.int(1_000, 120_000),
          narration,
          provider_reference: `CHAOS-${i}`,
        },
        tag,
      };
    }
    if (roll < 0.85) {
      const to = rng.pick(wallets.filter((w) => w.id !== from.id));
      return {
        n: i,
        kind: 'internal',
        key: `op-${i}`,
        method: 'POST',
        path: `/v1/wallets/${from.id}/transfer`,
        body: { destination_account_number: to.account_number, amount: rng.int(100, 20_000), narration: tag },
        tag,
      };
    }
    const destination = rng.next() < 0.7 ? makeNuban('058', String(100_000_000 + i)) : '1111111111';
    return {
      n: i,
      kind: 'external',
      key: `op-${i}`,
      method: 'POST',
      path: `/v1/wallets/${from.id}/transfer`,
      body: {
        destination_account_number: destination,
        destination_bank_code: '058',
        amount: rng.int(100, 20_000),
        narration: tag,
      },
      tag,
    };
  }

  const clients = Array.from({ length: options.clients ?? 4 }, async () => {
    while (running) {
      if (paused) await paused;
      if (!running) break;
      const op = nextOp();
      const r = await settle(op);
      outcomes.push({ op, status: r.status, body: r.body });
      if (r.status >= 500) problems.push(`${op.kind} ${op.key} answered ${r.status}: ${JSON.stringify(r.body)}`);
      if (op.kind === 'credit' && r.body.data?.outcome === 'SUSPENDED') held.push(r.body.data.suspense_item.id);
    }
  });

  let verified = 0;
  async function verify(round: string) {
    const fresh = outcomes.slice(verified);
    verified = outcomes.length;
    const older = outcomes.slice(0, verified - fresh.length);
    const sample = [...fresh, ...Array.from({ length: Math.min(30, older.length) }, () => rng.pick(older))];
    const audit = await send('GET', '/sandbox/audit');
    if (!audit.body.data?.ok) problems.push(`${round}: audit failed: ${JSON.stringify(audit.body.data?.problems)}`);
    for (const { op, status, body } of sample) {
      if (status >= 300) continue;
      const replay = await settle(op);
      if (replay.status !== status || !isDeepStrictEqual(replay.body, body))
        problems.push(
          `${round}: replay of ${op.key} differs: ${JSON.stringify(body)} vs ${JSON.stringify(replay.body)}`,
        );
      const data = body.data;
      const probe =
        op.kind === 'credit'
          ? data.outcome === 'CREDITED'
            ? `/v1/transactions/${data.transaction.id}`
            : `/sandbox/suspense/${data.suspense_item.id}`
          : op.kind === 'resolve'
            ? `/sandbox/suspense/${op.path.split('/')[3]}`
            : `/v1/transactions/${data.transaction_id}`;
      const found = await send('GET', probe);
      if (found.status !== 200)
        problems.push(`${round}: acknowledged ${op.key} is missing (${probe} → ${found.status})`);
      if (op.kind === 'resolve' && found.body.data?.status !== 'RESOLVED')
        problems.push(`${round}: resolved item of ${op.key} is ${found.body.data?.status}`);
    }
    log(
      `${round}: ${outcomes.length} operations, ${fresh.length} new, audit ${audit.body.data?.ok ? 'clean' : 'FAILED'}`,
    );
  }

  try {
    log('load running');
    for (let kill = 1; kill <= options.kills; kill++) {
      await sleep(rng.int(150, 700));
      log(`kill ${kill}: ${outcomes.length} operations so far`);
      await sandbox.kill('SIGKILL');
      await sandbox.start();
      let resume!: () => void;
      paused = new Promise((resolve) => (resume = resolve));
      await verify(`after kill ${kill}`);
      paused = undefined;
      resume();
    }
    running = false;
    await Promise.all(clients);
    // Replays first: idempotency keys live 24 h of sandbox time, and recovery below moves the clock days ahead.
    await verify('final');
    // Recovery: let the provider and the webhook schedule run everything that is due.
    for (let day = 0; day < 3; day++) await send('POST', '/sandbox/clock/advance', { seconds: 86_400 });
    const after = await send('GET', '/sandbox/audit');
    if (!after.body.data?.ok)
      problems.push(`after recovery: audit failed: ${JSON.stringify(after.body.data?.problems)}`);

    const db = new Database(sandbox.dbPath, { readonly: true });
    const count = (sql: string, ...params: unknown[]) => (db.prepare(sql).get(...params) as { n: number }).n;
    for (const { op, status, body } of outcomes) {
      const ok = status < 300;
      if (op.kind === 'credit') {
        const table = body.data?.outcome === 'SUSPENDED' ? 'suspense_items' : 'transactions';
        const found = count(
          `SELECT count(*) AS n FROM ${table} WHERE provider_reference = ? ${table === 'transactions' ? "AND type = 'CREDIT'" : ''}`,
          `CHAOS-${op.n}`,
        );
        if (found !== (ok ? 1 : 0)) problems.push(`credit ${op.key} (${status}) is in the database ${found} times`);
      } else if (op.kind === 'resolve') {
        const found = count(
          `SELECT count(*) AS n FROM events WHERE type_code = ${typeCode('suspense.resolved')} AND payload LIKE ?`,
          `%"note":"${op.tag}"%`,
        );
        if (found !== (ok ? 1 : 0)) problems.push(`resolve ${op.key} (${status}) happened ${found} times`);
      } else {
        const found = count(
          "SELECT count(*) AS n FROM transactions WHERE type = 'DEBIT' AND raw_narration = ?",
          op.tag,
        );
        if (found !== (ok ? 1 : 0)) problems.push(`${op.kind} transfer ${op.key} (${status}) debited ${found} times`);
      }
    }
    const undelivered = count("SELECT count(*) AS n FROM webhook_logs WHERE status != 'DELIVERED'");
    if (undelivered > 0) problems.push(`${undelivered} webhook deliveries are not DELIVERED after recovery`);
    // The receiver keeps an event's id as text; the event's own is stored as its 16 bytes (events/stored.ts).
    const sameEvent = "unhex(replace(r.webhook_id, '-', '')) = e.id";
    const missing = count(
      `SELECT count(*) AS n FROM events e WHERE NOT EXISTS (SELECT 1 FROM receiver_events r WHERE ${sameEvent})`,
    );
    if (missing > 0) problems.push(`${missing} committed events never reached the receiver`);
    const duplicates = count(
      'SELECT count(*) AS n FROM (SELECT webhook_id FROM receiver_events GROUP BY webhook_id HAVING count(*) > 1)',
    );
    const inFlightAtKills = options.kills * 8;
    if (duplicates > inFlightAtKills)
      problems.push(
        `${duplicates} events were received twice, more than could have been in flight at ${options.kills} kills`,
      );
    const stranger = count(
      `SELECT count(*) AS n FROM receiver_events r WHERE NOT EXISTS (SELECT 1 FROM events e WHERE ${sameEvent})`,
    );
    if (stranger > 0) problems.push(`${stranger} received deliveries match no committed event`);
    db.close();
    return {
      kills: options.kills,
      operations: outcomes.length,
      succeeded: outcomes.filter((o) => o.status < 300).length,
      refused: outcomes.filter((o) => o.status >= 400).length,
      duplicateDeliveries: duplicates,
      problems,
    };
  } finally {
    running = false;
    await sandbox.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
