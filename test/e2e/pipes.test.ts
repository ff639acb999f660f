import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/output/table.js';
import { BIN, type Cli, cleanEnv, createCli, createWalletWithCli } from '../helpers/cli.js';

/**
 * Lists for programs and for people at 80 columns: rows on a pipe, --format, --all and the notice of
 * a page that is not the last. The built binary against a seeded sandbox (a manual clock).
 */
let cli: Cli;
let ada: string;
let bola: string;
const ids: string[] = [];

beforeAll(async () => {
  cli = createCli();
  expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--seed', '7'])).exitCode).toBe(0);
  ada = await createWalletWithCli(cli, 'ada-07', { first: 'Ada' });
  bola = await createWalletWithCli(cli, 'bola-12', { first: 'Bola' });
  // Five held payments, made within one second: their ids share the creation time at the front.
  const held = [
    [ada, '1250000', 'SANDBOX-LOW-CONFIDENCE rent, "May", Yaba'],
    [ada, '700000', '=HYPERLINK("http://evil") SANDBOX-LOW-CONFIDENCE'],
    [bola, '123456789', 'SANDBOX-LOW-CONFIDENCE tab\there\nand a new line \u001b[31mred'],
    [bola, '5000', 'SANDBOX-LOW-CONFIDENCE school fees for the second term, Greenfield Academy'],
    [ada, '2500', 'SANDBOX-LOW-CONFIDENCE asdfgh'],
  ];
  for (const [to, amount, narration] of held) {
    const r = await cli.run([
      'credit',
      to!,
      amount!,
      '--narration',
      narration!,
      '--sender-name',
      'Chukwuemeka Okonkwo-Adeyemi',
      '--json',
    ]);
    ids.push(JSON.parse(r.stdout).suspense_item.id);
  }
  await cli.run(['sandbox', 'clock', 'advance', '3h']);
});
afterAll(async () => {
  await cli.run(['sandbox', 'stop']);
  cli.cleanup();
});

const rows = (text: string, separator = '\t') =>
  text
    .replace(/\r?\n$/, '')
    .split(/\r?\n/)
    .map((line) => line.split(separator));

describe('a list on a pipe', () => {
  it('is tab-separated rows under a header line of field names, with tabs, line breaks and escapes in data made harmless', async () => {
    // Values a script can use as they are: full ids, kobo, ISO times, no box.
    const r = await cli.run(['suspense', 'list']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const [head, ...body] = rows(r.stdout);
    expect(head).toEqual([
      'id',
      'created_at',
      'amount',
      'customer_reference',
      'reason',
      'status',
      'sender_name',
      'raw_narration',
    ]);
    expect(body.map((row) => row[0])).toEqual(ids);
    expect(body.map((row) => [row[2], row[3]])).toEqual([
      ['1250000', 'ada-07'],
      ['700000', 'ada-07'],
      ['123456789', 'bola-12'],
      ['5000', 'bola-12'],
      ['2500', 'ada-07'],
    ]);
    expect(body[0]![1]).toBe('2026-01-01T00:00:00.000Z');
    expect(body[2]![7]).toBe('SANDBOX-LOW-CONFIDENCE tab here and a new line red');
    expect(r.stdout).not.toMatch(/[│┌─]|\u001b/);
    // --format table asks for the table on a pipe all the same.
    expect((await cli.run(['suspense', 'list', '--format', 'table'])).stdout).toMatch(/^┌─/);
  });

  it('piped to `head -3` (bash, pipefail) exits 0 with three lines', async () => {
    const r = await execa('bash', ['-o', 'pipefail', '-c', '$LEDGER suspense list | head -3'], {
      cwd: cli.dir,
      env: cleanEnv({ LEDGER: `${process.execPath} ${BIN}` }),
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(3);
    expect(r.stdout.split('\n')[1]!.split('\t')[0]).toBe(ids[0]);
  });

  it('--format csv quotes per RFC 4180, and a value a spreadsheet would run as a formula starts with an apostrophe', async () => {
    const r = await cli.run(['suspense', 'list', '--format', 'csv']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\r\n');
    expect(lines[0]).toBe('id,created_at,amount,customer_reference,reason,status,sender_name,raw_narration');
    expect(lines[1]).toBe(
      `${ids[0]},2026-01-01T00:00:00.000Z,1250000,ada-07,AI_LOW_CONFIDENCE,PENDING,Chukwuemeka Okonkwo-Adeyemi,"SANDBOX-LOW-CONFIDENCE rent, ""May"", Yaba"`,
    );
    expect(lines[2]).toBe(
      `${ids[1]},2026-01-01T00:00:00.000Z,700000,ada-07,AI_LOW_CONFIDENCE,PENDING,` +
        `Chukwuemeka Okonkwo-Adeyemi,"'=HYPERLINK(""http://evil"") SANDBOX-LOW-CONFIDENCE"`,
    );
    expect(lines.at(-1)).toBe('');
    // --format json is --json.
    expect((await cli.run(['suspense', 'list', '--format', 'json'])).stdout).toBe(
      (await cli.run(['suspense', 'list', '--json'])).stdout,
    );
    expect(await cli.run(['suspense', 'list', '--json', '--format', 'csv'])).toMatchObject({
      exitCode: 2,
      stderr: 'Error [USAGE]: --json and --format csv ask for two formats: give one\n',
    });
  });
});

describe('pages', () => {
  it('a page that is not the last says so on stderr, never on stdout; --all follows every page into one list', async () => {
    const first = await cli.run(['suspense', 'list', '--limit', '2']);
    expect(
      rows(first.stdout)
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(ids.slice(0, 2));
    expect(first.stderr).toBe('showing 2 of 5; --all or --page 2\n');
    const middle = await cli.run(['suspense', 'list', '--limit', '2', '--page', '2']);
    expect(middle.stderr).toBe('showing 3–4 of 5; --all or --page 3\n');
    const last = await cli.run(['suspense', 'list', '--limit', '2', '--page', '3']);
    expect([last.stderr, rows(last.stdout).length]).toEqual(['', 2]);
    // --json keeps a script's stderr its own.
    expect((await cli.run(['suspense', 'list', '--limit', '2', '--json'])).stderr).toBe('');

    // Three pages of two, one list: every id once, in order, one header, nothing said.
    const all = await cli.run(['suspense', 'list', '--all', '--limit', '2']);
    expect(all.stderr).toBe('');
    expect(rows(all.stdout).map((row) => row[0])).toEqual(['id', ...ids]);
    const json = JSON.parse((await cli.run(['suspense', 'list', '--all', '--limit', '2', '--json'])).stdout);
    expect(json.items.map((item: { id: string }) => item.id)).toEqual(ids);
    expect([json.total, json.page, json.limit]).toEqual([5, 1, 5]);
    const table = await cli.run(['suspense', 'list', '--all', '--limit', '2', '--format', 'table', '--wide']);
    expect(table.stdout).toContain('1–5 of 5 suspense items · page 1\n');
    expect(await cli.run(['suspense', 'list', '--all', '--page', '2'])).toMatchObject({
      exitCode: 2,
      stderr: 'Error [USAGE]: --all starts at the first page: leave out --page\n',
    });
  });
});

describe('tables at 80 columns', () => {
  const narrow = { env: { COLUMNS: '80' } };

  it('`suspense list --status PENDING` leaves out first the columns that say the same on every row, and shortens ids', async () => {
    // Money stays whole, with the age and the customer; a short id is the unique start of its random last
    // group, so commands take it back.
    const r = await cli.run(['suspense', 'list', '--status', 'PENDING', '--format', 'table'], narrow);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // Every item here is PENDING for AI_LOW_CONFIDENCE: those two columns say nothing, and go first.
    expect(lines[1]).toMatch(/^│ ID +│ Age │ Amount +│ Customer +│ Narration +│$/);
    const body = lines
      .filter((line) => /^│ [0-9a-f]/.test(line))
      .map((line) => line.split('│').map((cell) => cell.trim()));
    expect(body.map((cells) => cells.slice(2, 5))).toEqual([
      ['3h', '1250000 (₦12,500.00)', 'ada-07'],
      ['3h', '700000 (₦7,000.00)', 'ada-07'],
      ['3h', '123456789 (₦1,234,567.89)', 'bola-12'],
      ['3h', '5000 (₦50.00)', 'bola-12'],
      ['3h', '2500 (₦25.00)', 'ada-07'],
    ]);
    // Each short id starts its own id's last (random) group, at least 6 hex digits, and no two are alike.
    const short = body.map((cells) => cells[1]!);
    short.forEach((s, i) =>
      expect(ids[i]!.slice(24).startsWith(s) && /^[0-9a-f]{6,12}$/.test(s), `${s} of ${ids[i]}`).toBe(true),
    );
    expect(new Set(short).size).toBe(ids.length);
    // What a person copies from the table is taken back by the next command.
    const shown = await cli.run(['suspense', 'show', short[0]!, '--json']);
    expect([shown.exitCode, JSON.parse(shown.stdout).id]).toEqual([0, ids[0]]);
    expect(lines.at(-1)).toBe('ids shortened, Reason, Status and Sender left out to fit: --wide shows all');
  });

  it('`webhooks list` shows the wallet and the last error in short, and says when deliveries wait for the manual clock', async () => {
    expect((await cli.run(['sandbox', 'receiver', 'fail', '--status', '503', '--times', '2'])).exitCode).toBe(0);
    await cli.run(['credit', ada, '1000', '--narration', 'salary']);
    await cli.run(['credit', ada, '2000', '--narration', 'salary']);
    const waiting = await cli.run(['webhooks', 'list', '--status', 'PENDING']);
    expect(waiting.stderr).toBe('2 deliveries wait for the clock: ledger sandbox clock advance 1s\n');
    await cli.run(['sandbox', 'clock', 'advance', '1s']);
    const r = await cli.run(['webhooks', 'list', '--status', 'FAILED', '--format', 'table'], narrow);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/│ Wallet +│ Customer +│ Last error +│/);
    for (const row of [lines[3], lines[4]])
      expect(row).toMatch(new RegExp(`│ ${ada.slice(24, 30)} │ ada-07 +│ 503\\b`));
    // Retried 5 s after the first attempts, made where they fell due (1 s ago), on a clock that moves only when told.
    expect(r.stderr).toBe('2 deliveries wait for the clock: ledger sandbox clock advance 4s\n');
  });
});
