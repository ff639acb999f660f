// bench/cli: what a person or a CI script waits for. Each client command as the README teaches it,
// against `node -e ''` (Node's own start-up, the floor) and against curl making the same HTTP
// requests; then a 20-step shell scenario as the README teaches it against the same requests made
// with curl (and jq where the script needs an id). Every pair runs interleaved, A B A B A B, after
// one warm-up of each side; the median of the runs is reported with min and max. Plus
// `sandbox start --detach` until healthy against a bare node server.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, interleave, median, ROUNDS, row, startSandbox, wall } from './lib.js';

const SCENARIO_RUNS = Number(process.env.BENCH_SCENARIO_RUNS ?? 3);

const curlArgs = (server, method, path, body) => [
  '-s',
  '-f',
  '-X',
  method,
  `${server.baseUrl}${path}`,
  '-H',
  `x-api-key: ${server.apiKey}`,
  ...(body ? ['-H', 'content-type: application/json', '-d', JSON.stringify(body)] : []),
];

/** The quickstart's first steps and a payout, suspense and webhook check: 20 `ledger` calls, as the README writes them. */
const LEDGER_SCENARIO = `set -e
ADA=$(ledger wallets create --customer-reference "ada-$RUN" --first-name Ada --last-name Obi --email ada@example.com --quiet)
BOLA=$(ledger wallets create --customer-reference "bola-$RUN" --first-name Bola --last-name Ade --email bola@example.com --quiet)
ledger credit "$ADA" 500000 --narration "Salary for May"
ledger transfer "$ADA" "$BOLA" 150000 --narration "Rent share"
ledger transactions list "$ADA"
ledger wallets get "$BOLA"
ledger wallets close "$BOLA"
ledger credit "$BOLA" 2500
ledger sandbox audit
ledger banks resolve 0123456785 058
TX=$(ledger transfer "$ADA" 0123456785 100000 --bank 058 --yes --quiet)
ledger transactions get "$TX"
ledger sandbox clock advance 1h
ledger transactions get "$TX"
ledger credit "$ADA" 70000 --narration "asdfgh"
ITEM=$(ledger suspense list --status PENDING --reason AI_LOW_CONFIDENCE --desc --limit 1 --quiet)
ledger suspense resolve "$ITEM" --action CREDIT_WALLET --target-wallet "$ADA" --yes
ledger webhooks list --limit 5
ledger wallets get "$ADA" --json
ledger sandbox audit --json
`;

/**
 * The same HTTP requests, in the same order, with curl (jq picks out the ids the script needs). A line
 * ending in \ is joined to the next by the template itself, so bash runs the same one-line commands.
 */
const CURL_SCENARIO = `set -e
H="x-api-key: $LEDGER_API_KEY"; J="content-type: application/json"; U="$LEDGER_BASE_URL"
read ADA ADA_ACC < <(curl -sf -X POST "$U/v1/wallets" -H "$H" -H "$J" \
-d "{\\"customer_reference\\":\\"ada-$RUN\\",\\"first_name\\":\\"Ada\\",\\"last_name\\":\\"Obi\\",\\"email\\":\\"ada@example.com\\"}" \
| jq -r '.data.id + " " + .data.account_number')
read BOLA BOLA_ACC < <(curl -sf -X POST "$U/v1/wallets" -H "$H" -H "$J" \
-d "{\\"customer_reference\\":\\"bola-$RUN\\",\\"first_name\\":\\"Bola\\",\\"last_name\\":\\"Ade\\",\\"email\\":\\"bola@example.com\\"}" \
| jq -r '.data.id + " " + .data.account_number')
curl -sf "$U/v1/wallets/$ADA" -H "$H" \
--next -sf -X POST "$U/sandbox/inbound-transfers" -H "$H" -H "$J" \
-d "{\\"account_number\\":\\"$ADA_ACC\\",\\"amount\\":500000,\\"narration\\":\\"Salary for May\\"}"
curl -sf "$U/v1/wallets/$BOLA" -H "$H" \
--next -sf -X POST "$U/v1/wallets/$ADA/transfer" -H "$H" -H "$J" \
-d "{\\"destination_account_number\\":\\"$BOLA_ACC\\",\\"amount\\":150000,\\"narration\\":\\"Rent share\\"}"
curl -sf "$U/v1/wallets/$ADA/transactions?page=1&limit=20" -H "$H"
curl -sf "$U/v1/wallets/$BOLA" -H "$H"
curl -sf -X POST "$U/v1/wallets/$BOLA/close" -H "$H"
curl -sf "$U/v1/wallets/$BOLA" -H "$H" \
--next -sf -X POST "$U/sandbox/inbound-transfers" -H "$H" -H "$J" -d "{\\"account_number\\":\\"$BOLA_ACC\\",\\"amount\\":2500}"
curl -sf "$U/sandbox/audit" -H "$H"
curl -sf -X POST "$U/v1/banks/resolve" -H "$H" -H "$J" -d '{"account_number":"0123456785","bank_code":"058"}'
TX=$(curl -sf -X POST "$U/v1/wallets/$ADA/transfer" -H "$H" -H "$J" \
-d '{"destination_account_number":"0123456785","destination_bank_code":"058","amount":100000}' \
| jq -r .data.transaction_id)
curl -sf "$U/v1/transactions/$TX" -H "$H"
curl -sf -X POST "$U/sandbox/clock/advance" -H "$H" -H "$J" -d '{"seconds":3600}'
curl -sf "$U/v1/transactions/$TX" -H "$H"
curl -sf "$U/v1/wallets/$ADA" -H "$H" \
--next -sf -X POST "$U/sandbox/inbound-transfers" -H "$H" -H "$J" -d "{\\"account_number\\":\\"$ADA_ACC\\",\\"amount\\":70000,\\"narration\\":\\"asdfgh\\"}"
ITEM=$(curl -sf "$U/v1/suspense?page=1&limit=1&order=desc&status=PENDING&reason=AI_LOW_CONFIDENCE" -H "$H" | jq -r '.data.items[0].id')
curl -sf -X POST "$U/v1/suspense/$ITEM/resolve" -H "$H" -H "$J" -d "{\\"action\\":\\"CREDIT_WALLET\\",\\"target_wallet_id\\":\\"$ADA\\"}"
curl -sf "$U/v1/webhook-logs?page=1&limit=5" -H "$H"
curl -sf "$U/v1/wallets/$ADA" -H "$H"
curl -sf "$U/sandbox/audit" -H "$H"
`;

async function untilHealthy(url) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-cli-'));
  try {
    const server = await startSandbox(dir, join(dir, 'cli.db'));
    const wallet = async (ref) =>
      (
        await server.call('POST', '/v1/wallets', {
          customer_reference: ref,
          first_name: 'C',
          last_name: 'L',
          email: `${ref}@l.ng`,
        })
      ).data;
    const a = await wallet('cli-a');
    const b = await wallet('cli-b');
    await server.call('POST', '/sandbox/inbound-transfers', {
      account_number: a.account_number,
      amount: 1_000_000_000,
    });
    const env = { ...process.env, LEDGER_BASE_URL: server.baseUrl, LEDGER_API_KEY: server.apiKey, NO_COLOR: '1' };
    const node = () => wall(process.execPath, ['-e', ''], { env });
    const ledger =
      (...args) =>
      () =>
        wall(process.execPath, [BIN, ...args], { env });
    const curl =
      (...requests) =>
      () =>
        wall(
          'curl',
          requests.flatMap((r, i) => [...(i ? ['--next'] : []), ...curlArgs(server, ...r)]),
          { env },
        );

    const commands = [
      ['`ledger wallets get --json`', ledger('wallets', 'get', a.id, '--json'), [['GET', `/v1/wallets/${a.id}`]]],
      [
        '`ledger credit <wallet> 100`',
        ledger('credit', a.id, '100'),
        [
          ['GET', `/v1/wallets/${a.id}`],
          ['POST', '/sandbox/inbound-transfers', { account_number: a.account_number, amount: 100 }],
        ],
      ],
      [
        '`ledger transfer <wallet> <wallet> 1`',
        ledger('transfer', a.id, b.id, '1'),
        [
          ['GET', `/v1/wallets/${b.id}`],
          ['POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: b.account_number, amount: 1 }],
        ],
      ],
      ['`ledger --help`', ledger('--help')],
    ];
    const rows = [];
    for (const [name, command, requests] of commands) {
      rows.push(row(`${name} wall time`, await interleave(command, node, ROUNDS, { warmUp: 1 }), "node -e ''", 1.5));
      if (requests)
        rows.push(
          row(
            `${name} wall time`,
            await interleave(command, curl(...requests), ROUNDS, { warmUp: 1 }),
            'curl, same requests',
          ),
        );
    }

    // The scenario: `ledger` on PATH as `npm link` leaves it (a link to bin/ledger.js).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'ledger'));
    writeFileSync(join(dir, 'ledger.sh'), LEDGER_SCENARIO);
    writeFileSync(join(dir, 'curl.sh'), CURL_SCENARIO);
    let runId = 0;
    const scenario = (file) => () =>
      wall('bash', [join(dir, file)], {
        env: { ...env, PATH: `${bin}:${process.env.PATH}`, RUN: String((runId += 1)) },
      });
    rows.push(
      row(
        '20-step shell scenario, `ledger` as the README teaches',
        await interleave(scenario('ledger.sh'), scenario('curl.sh'), SCENARIO_RUNS, { warmUp: 1 }),
        'curl (+ jq for ids), same requests',
      ),
    );
    await server.stop();

    const ready = [];
    const bare = [];
    for (let i = 0; i < 3; i++) {
      const home = join(dir, `start-${i}`);
      ready.push(
        wall(process.execPath, [BIN, 'sandbox', 'start', '--detach', '--memory', '--port', '0'], {
          cwd: dir,
          env: { ...process.env, LEDGER_HOME: home },
        }),
      );
      wall(process.execPath, [BIN, 'sandbox', 'stop'], { cwd: dir, env: { ...process.env, LEDGER_HOME: home } });
      // The bare server takes a port of its own choosing (as `--detach --port 0` does) and names it.
      const t0 = performance.now();
      const child = spawn(
        process.execPath,
        [
          '-e',
          `const s = require('http').createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', () => console.log(s.address().port))`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const port = await new Promise((resolve, reject) => {
        child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
        child.once('exit', (code) => reject(new Error(`the bare node server exited (${code}) before it listened`)));
      });
      await untilHealthy(`http://127.0.0.1:${port}/`);
      bare.push(performance.now() - t0);
      child.kill();
    }
    rows.push({
      row: '`ledger sandbox start --detach` until healthy',
      value: median(ready),
      floor: median(bare),
      unit: 'ms',
      floorLabel: 'bare node server',
      lowerIsBetter: true,
      target: '≤ 1000 ms',
      met: median(ready) <= 1000,
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
