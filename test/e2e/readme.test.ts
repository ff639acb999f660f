import { execa } from 'execa';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Cli, cleanEnv, createCli } from '../helpers/cli.js';
import { readDoc, sectionOf } from '../helpers/docs.js';

/**
 * The README's quickstart and the support shift after it (in docs/walkthroughs.md), run from those
 * files themselves: every line of their fenced `sh` blocks runs in one bash session, in order, with
 * `ledger` on PATH as the set-up leaves it; each line that has a comment has a check here that the comment is true. A
 * commented line without a check, or a check without its line, fails the test, so the docs and
 * this file change together. Two liberties: `sandbox start` gets `--port 0` (and, started again,
 * the port it had, as 4010 would be), so the test never collides with a sandbox on 4010, and
 * `--clock manual`, so the sandbox clock moves only at the README's `clock advance` lines. On the
 * real clock a line that took over 5 s on a busy machine let the README's failing webhook make its
 * second attempt early (the README says so: "pasted slowly, it already had"), and the check that
 * attempt 1 alone was made failed; what the comments promise must not depend on typing speed.
 */
const README = readDoc('README.md');
/** The support shift runs on where the quickstart stops, on its sandbox and its data. */
const sections = [sectionOf('README.md', '## Quickstart'), sectionOf('docs/walkthroughs.md', '## A support shift')];
/** The set-up's first command ends by starting the sandbox: that part runs first, as a newcomer's shell would have run it. */
const SETUP =
  /## Set up[\s\S]*?```sh\n(npm install && npm link --ignore-scripts && )(ledger sandbox start [^\n]*)\nnpm test\n```/.exec(
    README,
  );
const LINES = [
  ...(SETUP ? [SETUP[2]!] : []),
  ...sections
    .flatMap((section) => [...section.matchAll(/```sh\n([\s\S]*?)```/g)])
    .flatMap((m) => m[1]!.split('\n'))
    .filter((l) => l.trim() !== ''),
];
const commandOf = (line: string) => line.replace(/\s+#.*$/, '').trim();
const hasComment = (line: string) => /\s#\s/.test(line);

interface Ran {
  stdout: string;
  stderr: string;
  code: number;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const vars: Record<string, string> = {};
let cli: Cli;
let ledger: (args: string[]) => Promise<any>;

type Check = (r: Ran) => void | Promise<void>;
/** Rows printed on a pipe (a header line of field names, then tab-separated values) as objects. */
const rowsOf = (stdout: string) => {
  const [head, ...rows] = stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split('\t'));
  return rows.map((row) => Object.fromEntries(head!.map((key, i) => [key, row[i]!])));
};

/** What each commented line's comment promises, keyed by the line's command (a list when it comes more than once). */
const CHECKS: Record<string, Check | Check[]> = {
  'ledger sandbox start --detach --settlement-delay 3600': [
    (r) => {
      expect(r.stdout).toMatch(/^Sandbox running in the background at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)\n/);
      // What to do in another directory, exactly: LEDGER_HOME pointing at this one's state.
      expect(r.stdout).toContain(`elsewhere, first:\n  export LEDGER_HOME='${join(cli.dir, '.ledger')}'\n`);
    },
    async (r) => {
      expect(r.stdout).toMatch(/^Sandbox running in the background at /);
      expect(await ledger(['wallets', 'get', vars.ADA!])).toMatchObject({ customer_reference: 'ada', balance: 0 });
    },
  ],
  'eval "$(ledger sandbox env)"': (r) => expect(r.code).toBe(0),
  'ledger credit "$ADA" 500000 --narration "Salary for May"': (r) =>
    expect(r.stdout).toMatch(/^CREDITED 500000 \(₦5,000\.00\)\n/),
  'ledger transfer "$ADA" "$BOLA" 150000 --narration "Rent share"': (r) => {
    expect(r.stdout).toMatch(/^Status +SUCCESS$/m);
    expect(r.stdout).toMatch(/^Fee +0 \(₦0\.00\)$/m);
    expect(r.stdout).toMatch(/^New balance +350000 \(₦3,500\.00\)$/m);
  },
  'ledger transactions list "$ADA"': (r) => {
    // Run by a script, its output is a pipe: tab-separated rows with a header line.
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.map((row) => row.slice(2, 4))).toEqual([
      ['type', 'amount'],
      ['CREDIT', '500000'],
      ['DEBIT', '150000'],
    ]);
    expect(r.stderr).toBe('');
  },
  'ledger wallets get "$BOLA"': (r) => expect(r.stdout).toMatch(/^Balance +150000 \(₦1,500\.00\)$/m),
  'ledger wallets close "$BOLA" --yes': (r) => {
    expect(r.stdout).toMatch(/^Status +CLOSED$/m);
    expect(r.stdout).toMatch(/^Balance +150000 \(₦1,500\.00\)$/m);
  },
  'ledger credit "$BOLA" 2500': (r) =>
    expect(r.stdout).toMatch(/^SUSPENDED 2500 \(₦25\.00\) held in suspense: WALLET_CLOSED\n/),
  'ledger sandbox audit': (r) => expect(r.stdout).toMatch(/^Audit clean: every invariant holds\.\n/),
  'curl -s -w \'\\n\' "$LEDGER_BASE_URL/v1/wallets/$ADA"': (r) =>
    expect(JSON.parse(r.stdout)).toMatchObject({ success: false, detail: { code: 'UNAUTHORIZED' } }),
  'curl -s -w \'\\n\' -H "x-api-key: $LEDGER_API_KEY" "$LEDGER_BASE_URL/v1/wallets/$ADA"': (r) =>
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, data: { id: vars.ADA, balance: 350_000 } }),

  'ledger banks resolve 0123456785 058': (r) => expect(r.stdout).toMatch(/^Account name +[A-Z]+ [A-Z]+$/m),
  'ledger banks resolve 0123456789 058': (r) => {
    expect(r.code).toBe(1);
    const line = new RegExp(
      '^Error \\[ACCOUNT_NOT_FOUND\\]: .*account 0123456789 at Guaranty Trust Bank \\(058\\) could not be resolved: ' +
        "0123456789 fails this bank's NUBAN check digit.* \\(request (req_\\d+)\\)$",
      'm',
    );
    expect(r.stderr).toMatch(line);
    vars.REFUSED_REQUEST = line.exec(r.stderr)![1]!;
  },
  'TX=$(ledger transfer "$ADA" 0123456785 100000 --bank 058 --yes --quiet)': async () => {
    expect(vars.TX).toMatch(UUID);
    expect(await ledger(['transactions', 'get', vars.TX!])).toMatchObject({
      amount: 100_000,
      fee: 1_000,
      status: 'PENDING',
    });
  },
  'ledger transactions get "$TX"': [
    (r) => expect(r.stdout).toMatch(/^Status +PENDING$/m),
    (r) => expect(r.stdout).toMatch(/^Status +SETTLED$/m),
  ],
  'ledger sandbox clock advance 1h': [
    async () => expect(await ledger(['transactions', 'get', vars.TX!])).toMatchObject({ status: 'SETTLED' }),
    async () => {
      expect(await ledger(['transactions', 'get', vars.FAIL!])).toMatchObject({ status: 'FAILED' });
      const [reversal] = (await ledger(['transactions', 'list', vars.ADA!, '--desc', '--limit', '1'])).items;
      expect(reversal).toMatchObject({ type: 'CREDIT', amount: 51_000, sender_name: 'NIP REVERSAL' });
    },
  ],
  'FAIL=$(ledger transfer "$ADA" 1111111111 50000 --bank 058 --yes --quiet)': async () => {
    expect(await ledger(['transactions', 'get', vars.FAIL!])).toMatchObject({
      status: 'PENDING',
      destination_account_name: 'SANDBOX FAILED PAYOUT',
    });
  },
  'ledger transactions get "$FAIL"': (r) => expect(r.stdout).toMatch(/^Status +FAILED$/m),
  'ledger wallets get "$ADA"': (r) => expect(r.stdout).toMatch(/^Balance +249000 \(₦2,490\.00\)$/m),
  'ledger sandbox magic': (r) => expect(r.stdout).toContain('1111111111'),
  'ledger logs list --status 4xx': async (r) => {
    const refused = rowsOf(r.stdout);
    expect(refused.map((row) => row.code)).toContain('ACCOUNT_NOT_FOUND');
    expect(refused.every((row) => /^4\d\d$/.test(row.status!))).toBe(true);
    // The request id the banks resolve line ended with names this row, and `logs show` finds it.
    const id = refused.find((row) => row.code === 'ACCOUNT_NOT_FOUND')!.id!;
    expect(vars.REFUSED_REQUEST).toBe(id);
    expect(await ledger(['logs', 'show', id])).toMatchObject({ status: 422, path: '/v1/banks/resolve' });
  },
  'ledger sandbox open': async (r) => {
    // No terminal here: the link is printed, never opened, and it logs in once.
    const url = /^(http:\/\/127\.0\.0\.1:\d+\/login\?token=[\w-]+)$/m.exec(r.stdout)?.[1];
    expect(url).toBeDefined();
    const first = await fetch(url!, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect((await fetch(url!, { redirect: 'manual' })).status).toBe(401);
  },

  'ledger sandbox analyse "asdfgh"': async (r) => {
    expect(r.stdout).toMatch(/^Would be +SUSPENDED: AI_LOW_CONFIDENCE/m);
    expect((await ledger(['wallets', 'get', vars.ADA!])).balance).toBe(249_000);
    expect((await ledger(['suspense', 'list'])).total).toBe(1);
  },
  'ledger credit "$ADA" 70000 --narration "asdfgh"': (r) =>
    expect(r.stdout).toMatch(/^SUSPENDED 70000 \(₦700\.00\) held in suspense: AI_LOW_CONFIDENCE\n/),
  'ledger suspense show "$ITEM"': (r) => {
    expect(r.stdout).toMatch(/^Reason +AI_LOW_CONFIDENCE$/m);
    expect(r.stdout).toMatch(/^Analysis +unknown/m);
    expect(r.stdout).toContain('Raw payload');
  },
  'ledger suspense resolve "$ITEM" --action CREDIT_WALLET --target-wallet "$ADA" --note "customer confirmed" --yes': (
    r,
  ) =>
    expect(r.stdout).toMatch(
      new RegExp(`^Result +credited 70000 \\(₦700\\.00\\) to wallet ${vars.ADA} \\(Ada Obi, ada\\)$`, 'm'),
    ),
  'ledger transactions get "$(ledger transactions list "$ADA" --desc --limit 1 --quiet)"': (r) => {
    expect(r.stdout).toMatch(/^Amount +70000 \(₦700\.00\)$/m);
    expect(r.stdout).toMatch(/^Analysis +\S/m);
  },

  'ledger sandbox clock advance 1s': [
    async () => expect((await ledger(['webhooks', 'list', '--status', 'PENDING'])).total).toBe(0),
    async () =>
      expect(
        (await ledger(['webhooks', 'list', '--event-type', 'ledger.credit', '--desc', '--limit', '1'])).items[0],
      ).toMatchObject({ status: 'FAILED', attempt_count: 1 }),
  ],
  'ledger sandbox receiver fail --status 500 --times 2': (r) =>
    expect(r.stdout).toBe('The built-in receiver answers 500 to the next 2 deliveries.\n'),
  'ledger credit "$ADA" 1000 --narration "salary"': (r) => expect(r.stdout).toMatch(/^CREDITED 1000 \(₦10\.00\)\n/),
  'ledger webhooks list --status FAILED': [
    async (r) => {
      const [shown, ...rest] = rowsOf(r.stdout);
      expect(rest).toEqual([]);
      expect(shown).toMatchObject({
        event_type: 'ledger.credit',
        status: 'FAILED',
        attempt_count: '1',
        wallet_id: vars.ADA,
        customer_reference: 'ada',
      });
      expect(shown!.last_error).toMatch(/^500\b/);
      const [log] = (await ledger(['webhooks', 'list', '--status', 'FAILED'])).items;
      const { attempts } = await ledger(['webhooks', 'show', log.id]);
      // Scheduled 5 s after the attempt began; the attempt's own time is stamped when it is recorded.
      expect(Math.round((Date.parse(log.next_retry_at) - Date.parse(attempts[0].created_at)) / 1000)).toBe(5);
    },
    async (r) => {
      expect(rowsOf(r.stdout)).toEqual([
        expect.objectContaining({
          status: 'FAILED',
          attempt_count: '1',
          wallet_id: vars.ADA,
          customer_reference: 'ada',
          last_error: expect.stringMatching(/^503\b/),
        }),
      ]);
    },
  ],
  'ledger sandbox clock advance 5s': async () => {
    expect(
      (await ledger(['webhooks', 'list', '--event-type', 'ledger.credit', '--desc', '--limit', '1'])).items[0],
    ).toMatchObject({ status: 'FAILED', attempt_count: 2, http_status_code: 500 });
  },
  'ledger sandbox clock advance 5m': async () => {
    expect(
      (await ledger(['webhooks', 'list', '--event-type', 'ledger.credit', '--desc', '--limit', '1'])).items[0],
    ).toMatchObject({ status: 'DELIVERED', attempt_count: 3, http_status_code: 200 });
  },
  'ledger webhooks show "$(ledger webhooks list --event-type ledger.credit --desc --limit 1 --quiet)"': (r) => {
    expect(r.stdout).toMatch(/^Status +DELIVERED after 3 attempts/m);
    expect(r.stdout).toContain('Attempts (3)');
  },
  'ledger webhooks secret': (r) => expect(r.stdout).toMatch(/^whsec_\S+\n$/),

  'ledger credit "$ADA" 700000 --narration "salary"': async (r) => {
    expect(r.stdout).toMatch(/^CREDITED 700000 \(₦7,000\.00\)\n/);
    expect((await ledger(['wallets', 'get', vars.ADA!])).balance).toBe(0);
  },
  'ledger wallets get "$SAVE"': (r) => expect(r.stdout).toMatch(/^Balance +1020000 \(₦10,200\.00\)$/m),
  'ledger agents runs "$AGENT"': (r) => {
    expect(r.stdout).toMatch(/\tDONE\tbalance crossed above 1000000 \(/);
    expect(r.stdout).toContain('\tmoved 1020000 to wallet');
  },
  'ledger sandbox stop': (r) => expect(r.stdout).toMatch(/^Stopped the sandbox \(pid \d+\)/),

  // A support shift.
  'ledger credit "$ADA" 700000 --narration "SANDBOX-LOW-CONFIDENCE" --sender-name "OBI ADA NKECHI"': (r) =>
    expect(r.stdout).toMatch(/^SUSPENDED 700000 \(₦7,000\.00\) held in suspense: AI_LOW_CONFIDENCE\n/),
  'ledger sandbox clock advance 1d': async () => {
    const [held] = (await ledger(['suspense', 'list', '--customer', 'ada', '--status', 'PENDING'])).items;
    const { now } = await ledger(['sandbox', 'clock']);
    expect(Date.parse(now) - Date.parse(held.created_at)).toBe(86_400_000);
  },
  'ledger find ada': (r) => {
    // Ada's two wallets: hers and her savings.
    expect(r.stdout).toMatch(/^Wallets \(2\)\n {2}Ada Savings \(ada-savings\) [\s\S]*\n {2}Ada Obi \(ada\) /);
    const held = r.stdout.slice(r.stdout.indexOf('Suspense items (1)\n'));
    expect(held.replace(/\s+/g, ' ')).toMatch(
      / 700000 \(₦7,000\.00\) PENDING AI_LOW_CONFIDENCE from OBI ADA NKECHI to Ada Obi .* ledger suspense show [0-9a-f-]{36} $/,
    );
  },
  'ledger suspense list --customer ada --amount 700000 --since yesterday': (r) => {
    expect(rowsOf(r.stdout)).toEqual([
      expect.objectContaining({
        amount: '700000',
        customer_reference: 'ada',
        reason: 'AI_LOW_CONFIDENCE',
        sender_name: 'OBI ADA NKECHI',
      }),
    ]);
  },
  'ledger report --since yesterday': (r) => {
    expect(r.stdout).toMatch(/^Report \S+ 00:00 → .* Lagos time \(UTC\+1\)\n/);
    expect(r.stdout).toMatch(/^ {2}PENDING +AI_LOW_CONFIDENCE +1 +₦7,000\.00$/m);
    expect(r.stdout).toMatch(/^Money in +inbound credits /m);
    expect(r.stdout).toMatch(/^Webhooks +DELIVERED \d+/m);
  },
  'ledger suspense list --status PENDING,FLAGGED': (r) => {
    expect(rowsOf(r.stdout).map((row) => [row.amount, row.customer_reference, row.reason])).toEqual([
      ['2500', 'bola', 'WALLET_CLOSED'],
      ['700000', 'ada', 'AI_LOW_CONFIDENCE'],
    ]);
  },
  'ledger suspense flag "$ITEM" --note "Ada says it is hers"': (r) => expect(r.stdout).toMatch(/^Status +FLAGGED$/m),
  'ledger suspense note "$ITEM" "sender is her sister"': async (r) => {
    expect(r.stdout).toMatch(/^Status +FLAGGED$/m);
    const { notes } = await ledger(['suspense', 'show', vars.ITEM!]);
    expect(notes.map((n: { kind: string; note: string }) => [n.kind, n.note])).toEqual([
      ['FLAG', 'Ada says it is hers'],
      ['NOTE', 'sender is her sister'],
    ]);
  },
  'ledger suspense resolve "$ITEM" --action CREDIT_WALLET --target-wallet "$ADA" --yes': (r) =>
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`credited 700000 (₦7,000.00) to wallet ${vars.ADA} (Ada Obi, ada)`),
  'ledger sandbox receiver fail --status 503 --times 1': (r) =>
    expect(r.stdout).toBe('The built-in receiver answers 503 to the next 1 delivery.\n'),
  'ledger sandbox clock advance 2s': async () =>
    expect((await ledger(['webhooks', 'list', '--status', 'FAILED'])).total).toBe(1),
  'ledger suspense list --status PENDING | head -3': (r) => {
    expect(r.stdout).toMatch(/^id\tcreated_at\tamount\t/);
    expect(rowsOf(r.stdout).map((row) => [row.id, row.amount])).toEqual([[expect.stringMatching(UUID), '2500']]);
  },
};

beforeAll(async () => {
  cli = createCli();
  const bin = join(cli.dir, 'bin');
  mkdirSync(bin);
  // What `npm link` leaves on PATH, pointing at this build.
  writeFileSync(
    join(bin, 'ledger'),
    // Started again, the port it had: the URL that `eval "$(ledger sandbox env)"` exported still reaches it.
    `#!/bin/sh\nif [ "$1" = sandbox ] && [ "$2" = start ]; then\n` +
      `  port=$('${process.execPath}' -e 'try { console.log(new URL(require("./.ledger/sandbox.json").base_url).port) } catch { console.log(0) }')\n` +
      `  exec '${process.execPath}' '${BIN}' "$@" --port "$port" --clock manual\nfi\n` +
      `exec '${process.execPath}' '${BIN}' "$@"\n`,
  );
  chmodSync(join(bin, 'ledger'), 0o755);
  const env = cleanEnv({ PATH: `${bin}:${process.env.PATH}` });
  ledger = async (args) => {
    const state = JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8'));
    const r = await execa(process.execPath, [BIN, ...args, '--json'], {
      cwd: cli.dir,
      env: cleanEnv({ LEDGER_BASE_URL: state.base_url, LEDGER_API_KEY: state.api_key }),
      extendEnv: false,
    });
    return JSON.parse(String(r.stdout));
  };
  run = async (line) => {
    // One bash per line, in order; every variable (ADA=…, the eval'd exports) carries to the next line.
    const assigned = /^([A-Z]+)=\$\(/.exec(line)?.[1];
    const script =
      `set -a; [ -f state.sh ] && . ./state.sh\n${line}\nstatus=$?\nexport -p > state.sh\n` +
      `${assigned ? `printf '%s' "$${assigned}" > var.txt\n` : ''}exit $status`;
    const r = await execa('bash', ['--norc', '--noprofile', '-c', script], {
      cwd: cli.dir,
      env,
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      timeout: 60_000,
    });
    if (assigned) vars[assigned] = readFileSync(join(cli.dir, 'var.txt'), 'utf8');
    return { stdout: String(r.stdout), stderr: String(r.stderr), code: r.exitCode ?? -1 };
  };
});
let run: (line: string) => Promise<Ran>;

afterAll(async () => {
  await execa(process.execPath, [BIN, 'sandbox', 'stop'], {
    cwd: cli.dir,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
  });
  cli.cleanup();
});

describe('the README quickstart and the support shift after it', () => {
  it('has a check for every commented line, and every check has its line', () => {
    expect(
      SETUP,
      'the set-up is two commands: npm install && npm link --ignore-scripts && ledger sandbox start …, then npm test',
    ).not.toBeNull();
    const commented = LINES.filter(hasComment).map(commandOf);
    expect(commented.filter((c) => !(c in CHECKS))).toEqual([]);
    expect(Object.keys(CHECKS).filter((c) => !LINES.map(commandOf).includes(c))).toEqual([]);
    for (const [command, checks] of Object.entries(CHECKS)) {
      if (Array.isArray(checks))
        expect(LINES.filter((l) => commandOf(l) === command).length, command).toBe(checks.length);
    }
    expect(LINES.every((l) => !l.includes('npx '))).toBe(true);
  });

  it('does what every comment says, line by line', async () => {
    const seen = new Map<string, number>();
    for (const line of LINES) {
      const ran = await run(line);
      const assigned = /^([A-Z]+)=\$\(/.exec(line)?.[1];
      const where = `README line: ${line}\nstdout: ${ran.stdout}\nstderr: ${ran.stderr}`;
      if (assigned) expect(vars[assigned], where).toMatch(UUID);
      if (!line.includes('banks resolve 0123456789')) expect(ran.code, where).toBe(0);
      try {
        const checks = CHECKS[commandOf(line)];
        const n = seen.get(commandOf(line)) ?? 0;
        seen.set(commandOf(line), n + 1);
        await (Array.isArray(checks) ? checks[n] : checks)?.(ran);
      } catch (error) {
        throw new Error(`${where}\n${(error as Error).message}`);
      }
    }
    // One whole `ledger` process per README line: near 30 s on a loaded 2-core machine.
  }, 120_000);
});
