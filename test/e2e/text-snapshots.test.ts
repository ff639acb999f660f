import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/index.js';
import { useCli } from '../helpers/cli.js';

const cli = useCli('each');
const person = ['--first-name', 'Ada', '--last-name', 'Obi', '--email', 'ada@example.ng'];

describe('snapshot save --format json, from the command line', () => {
  it('writes the same bytes twice, restores every way, and refuses an unbalanced edit unless --force', async () => {
    // Written named and with --file, its format listed, restored with --file, --snapshot, a scenario and a
    // scenario step; the refusal is SNAPSHOT_INVALID.
    // A file database: the text is written by a worker thread from a consistent copy.
    expect(
      (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', join(cli.dir, 'a.db'), '--seed', '5']))
        .exitCode,
    ).toBe(0);
    const wallet = await cli.json(['wallets', 'create', '--customer-reference', 'ada', ...person]);
    await cli.json(['credit', wallet.account_number, '250000', '--narration', 'salary']);
    const saved = await cli.json(['sandbox', 'snapshot', 'save', 'base', '--format', 'json']);
    expect(saved).toMatchObject({ name: 'base', format: 'json', saved_at: null });
    const named = join(cli.dir, '.ledger', 'snapshots', 'base.jsonl');
    const text = readFileSync(named, 'utf8');
    await cli.json(['sandbox', 'snapshot', 'save', 'base', '--format', 'json']);
    expect(readFileSync(named, 'utf8')).toBe(text);
    expect(
      await cli.json(['sandbox', 'snapshot', 'save', '--file', 'fixture.jsonl', '--format', 'json']),
    ).toMatchObject({ file: join(cli.dir, 'fixture.jsonl'), format: 'json' });
    expect(readFileSync(join(cli.dir, 'fixture.jsonl'), 'utf8')).toBe(text);
    expect(
      (await cli.json(['sandbox', 'snapshot', 'list'])).items.map((s: { name: string; format: string }) => [
        s.name,
        s.format,
      ]),
    ).toEqual([['base', 'json']]);
    const listed = await cli.run(['sandbox', 'snapshot', 'list', '--format', 'tsv']);
    expect(listed.stdout).toMatch(/^base\tjson\t/m);
    const usage = await cli.run(['sandbox', 'snapshot', 'save', 'x', '--format', 'csv']);
    expect([usage.exitCode, usage.stderr]).toEqual([2, expect.stringContaining('sqlite, json')]);

    // A scenario step restores the named text snapshot of the running sandbox.
    await cli.json(['credit', wallet.account_number, '1000']);
    writeFileSync(
      join(cli.dir, 'restore.yaml'),
      `name: back to base\nsteps:\n  - snapshot: restore base\n  - run: wallets get ${wallet.id}\n    expect: { data.balance: 250000 }\n`,
    );
    const stepped = await cli.run([
      'scenario',
      'run',
      'restore.yaml',
      '--base-url',
      JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8')).base_url,
    ]);
    expect([stepped.exitCode, stepped.stderr]).toEqual([0, '']);
    await cli.run(['sandbox', 'stop']);

    // A fresh sandbox elsewhere: restore --file, then start --snapshot.
    expect(
      (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', join(cli.dir, 'b.db'), '--seed', '9']))
        .exitCode,
    ).toBe(0);
    expect((await cli.run(['wallets', 'get', wallet.id])).stderr).toMatch(/^Error \[NOT_FOUND\]/);
    expect(await cli.json(['sandbox', 'snapshot', 'restore', '--file', 'fixture.jsonl', '--yes'])).toMatchObject({
      file: join(cli.dir, 'fixture.jsonl'),
      format: 'json',
    });
    expect((await cli.json(['wallets', 'get', wallet.id])).balance).toBe(250_000);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    await cli.run(['sandbox', 'stop']);
    expect(
      (
        await cli.run([
          'sandbox',
          'start',
          '--detach',
          '--port',
          '0',
          '--db',
          join(cli.dir, 'c.db'),
          '--snapshot',
          './fixture.jsonl',
        ])
      ).exitCode,
    ).toBe(0);
    expect((await cli.json(['wallets', 'get', wallet.id])).balance).toBe(250_000);

    // Edited so the books do not balance: refused, then loaded with --force.
    writeFileSync(
      join(cli.dir, 'edited.jsonl'),
      text.replace('"kind":"WALLET","balance":250000,', '"kind":"WALLET","balance":900250000,'),
    );
    const refused = await cli.run(['sandbox', 'snapshot', 'restore', '--file', 'edited.jsonl', '--yes']);
    expect([refused.exitCode, refused.stderr]).toEqual([
      1,
      expect.stringMatching(/^Error \[SNAPSHOT_INVALID\]: file: does not balance/),
    ]);
    const cut = text.slice(0, Math.floor(text.length / 2));
    writeFileSync(join(cli.dir, 'cut.jsonl'), cut);
    const truncated = await cli.run(['sandbox', 'snapshot', 'restore', '--file', 'cut.jsonl', '--yes', '--force']);
    expect([truncated.exitCode, truncated.stderr]).toEqual([
      1,
      expect.stringMatching(new RegExp(`^Error \\[SNAPSHOT_INVALID\\]: file: line ${cut.split('\n').length} `, 'm')),
    ]);
    expect(
      (await cli.run(['sandbox', 'snapshot', 'restore', '--file', 'edited.jsonl', '--yes', '--force'])).exitCode,
    ).toBe(0);
    expect((await cli.json(['wallets', 'get', wallet.id])).balance).toBe(900_250_000);
    await cli.run(['sandbox', 'stop']);

    // A scenario run in process starts from the text file.
    writeFileSync(
      join(cli.dir, 'start.yaml'),
      `name: from the fixture\nsteps:\n  - run: wallets get ${wallet.id}\n    expect: { data.balance: 250000 }\n`,
    );
    const run = await cli.run(['scenario', 'run', 'start.yaml', '--snapshot', './fixture.jsonl']);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
  }, 120_000);
});

describe('startSandbox().snapshot.save(name, { format: "json" })', () => {
  it('saves a text snapshot by name and to a file, and restores either', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-text-in-process-'));
    const sandbox = await startSandbox({ seed: 3 });
    try {
      const headers = { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' };
      const create = (ref: string) =>
        fetch(`${sandbox.baseUrl}/v1/wallets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ customer_reference: ref, first_name: 'K', last_name: 'O', email: 'k@example.ng' }),
        });
      await create('k');
      const count = async () =>
        ((await (await fetch(`${sandbox.baseUrl}/sandbox/wallets`, { headers })).json()) as { data: { total: number } })
          .data.total;
      expect(await sandbox.snapshot.save('base', { format: 'json' })).toMatchObject({
        name: 'base',
        format: 'json',
        saved_at: null,
      });
      const file = join(dir, 'base.jsonl');
      expect(await sandbox.snapshot.save({ file }, { format: 'json' })).toMatchObject({
        file,
        format: 'json',
        saved_at: null,
      });
      expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(
        /^\{"format":"ledger-sandbox-snapshot","version":1,"schema":"\d{4}/,
      );
      await create('later');
      expect(await sandbox.snapshot.restore({ file })).toMatchObject({ file, format: 'json' });
      expect(await count()).toBe(1);
      await create('later');
      expect(await sandbox.snapshot.restore('base')).toMatchObject({ name: 'base', format: 'json' });
      expect(await count()).toBe(1);
      expect(await sandbox.audit()).toMatchObject({ ok: true });
      expect(readdirSync(dir)).toEqual(['base.jsonl']);
    } finally {
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
