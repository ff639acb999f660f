import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useSandboxCli, createWalletWithCli } from '../helpers/cli.js';

const cli = useSandboxCli({ clock: 'manual', clockStart: '2026-11-21T09:30:00.000Z' });

const json = (args: string[]) => cli.json(args);
describe('the suspense queue from the command line', () => {
  it('close a wallet, credit it, find the item, resolve it to another wallet: balance, transaction and audit are right', async () => {
    const closed = await createWalletWithCli(cli, 'closed');
    const target = await createWalletWithCli(cli, 'target', { first: 'Sus', last: 'target' });
    await cli.run(['wallets', 'close', closed]);
    const credit = await json([
      'credit',
      closed,
      '420000',
      '--narration',
      'rent for June',
      '--sender-name',
      'FEMI ADE',
    ]);
    expect(credit.outcome).toBe('SUSPENDED');

    const list = await json(['suspense', 'list', '--status', 'PENDING']);
    expect(list.total).toBe(1);
    const item = list.items[0];
    expect(item).toMatchObject({
      id: credit.suspense_item.id,
      reason: 'WALLET_CLOSED',
      status: 'PENDING',
      amount: 420_000,
      sender_name: 'FEMI ADE',
    });

    const resolved = await json([
      'suspense',
      'resolve',
      item.id,
      '--action',
      'CREDIT_WALLET',
      '--target-wallet',
      target,
      '--note',
      'moved to new wallet',
    ]);
    expect(resolved).toEqual({
      message: `credited 420000 kobo to wallet ${target} (Sus target, target)`,
      action: 'CREDIT_WALLET',
      transaction_id: expect.any(String),
    });
    expect((await json(['wallets', 'get', target])).balance).toBe(420_000);
    const listed = await json(['transactions', 'list', target]);
    expect(listed.items).toEqual([
      expect.objectContaining({
        id: resolved.transaction_id,
        type: 'CREDIT',
        amount: 420_000,
        sender_name: 'FEMI ADE',
        raw_narration: 'rent for June',
        status: 'SETTLED',
      }),
    ]);
    const again = await cli.run(['suspense', 'resolve', item.id, '--action', 'DISMISS']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/^Error \[SUSPENSE_ALREADY_RESOLVED\]: /);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
  });

  it('holds low-confidence and risky payments, shows them, and refuses to ask without a terminal', async () => {
    const w = await createWalletWithCli(cli, 'held');
    expect((await json(['credit', w, '1000', '--narration', 'SANDBOX-LOW-CONFIDENCE'])).suspense_item.reason).toBe(
      'AI_LOW_CONFIDENCE',
    );
    const risky = await json([
      'credit',
      w,
      '2000',
      '--narration',
      'rent SANDBOX-RISK',
      '--sender-account',
      '0690000032',
      '--sender-bank-code',
      '044',
    ]);
    expect(risky.suspense_item).toMatchObject({ reason: 'AI_RISK_FLAG', status: 'FLAGGED' });
    const shown = await cli.run(['suspense', 'show', risky.suspense_item.id]);
    expect(shown.stdout).toContain('flags SUSPECTED_FRAUD');
    const missing = await cli.run(['suspense', 'resolve']);
    expect([missing.exitCode, missing.stderr]).toEqual([
      2,
      'Error [USAGE]: missing <suspense_id> (no terminal to ask on)\n',
    ]);
    const refund = await json(['suspense', 'resolve', risky.suspense_item.id, '--action', 'REFUND']);
    expect(refund.action).toBe('REFUND');
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
  });

  it('flags an item with a note and adds another, and show lists both', async () => {
    // --quiet prints the id; a resolved item refuses a flag or a note (exit 1), and a bad note is exit 2.
    const w = await createWalletWithCli(cli, 'flagged');
    const held = (
      await json(['credit', w, '7000', '--narration', 'SANDBOX-LOW-CONFIDENCE', '--sender-name', 'OBI ADA NKECHI'])
    ).suspense_item;
    const flagged = await cli.run(['suspense', 'flag', held.id, '--note', 'sender says it is not theirs'], {
      env: { COLUMNS: '80' },
    });
    expect([flagged.exitCode, flagged.stderr]).toEqual([0, '']);
    expect(flagged.stdout).toBe(
      [
        `Suspense item   ${held.id}`,
        'Status          FLAGGED',
        'Amount          7000 (₦70.00)',
        'Note            2026-11-21T09:30:00.000Z · SANDBOX · flagged: "sender says it is',
        '                not theirs"',
        'Notes           1 note in all; `ledger suspense show` lists them',
        '',
      ].join('\n'),
    );
    await cli.run(['sandbox', 'clock', 'advance', '2h']);
    const noted = await cli.run(['suspense', 'note', held.id, 'left a voicemail', '--quiet']);
    expect([noted.exitCode, noted.stdout]).toEqual([0, `${held.id}\n`]);
    const shown = await cli.run(['suspense', 'show', held.id], { env: { COLUMNS: '80' } });
    expect(shown.stdout).toContain(
      'Notes           2026-11-21T09:30:00.000Z · SANDBOX · flagged: "sender says it is\n' +
        '                not theirs"\n' +
        '                2026-11-21T11:30:00.000Z · SANDBOX · "left a voicemail"\n',
    );
    const asJson = await json(['suspense', 'show', held.id]);
    expect(asJson).toMatchObject({
      status: 'FLAGGED',
      notes: [
        { kind: 'FLAG', note: 'sender says it is not theirs' },
        { kind: 'NOTE', note: 'left a voicemail', created_at: '2026-11-21T11:30:00.000Z' },
      ],
    });

    const bad = await cli.run(['suspense', 'note', held.id, 'x'.repeat(501)]);
    expect([bad.exitCode, bad.stderr]).toEqual([2, 'Error [USAGE]: <text> must be at most 500 characters\n']);
    const noNote = await cli.run(['suspense', 'flag', held.id]);
    expect([noNote.exitCode, noNote.stderr]).toEqual([2, 'Error [USAGE]: missing --note (no terminal to ask on)\n']);

    await cli.run(['suspense', 'resolve', held.id, '--action', 'DISMISS']);
    for (const args of [
      ['flag', held.id, '--note', 'late'],
      ['note', held.id, 'late'],
    ]) {
      const late = await cli.run(['suspense', ...args]);
      expect([late.exitCode, late.stderr]).toEqual([
        1,
        expect.stringMatching(/^Error \[SUSPENSE_ALREADY_RESOLVED\]: suspense item was already resolved \(DISMISS\)/),
      ]);
    }
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
  });

  it('refuses flag and note clearly against a server that does not offer them, instead of calling the item unknown', async () => {
    // A whole id: it goes to the server as it is, with no search to resolve it.
    const ITEM = '019b76da-a810-7873-bd03-0e358ea3a56a';
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(`${request.method} ${request.url} ${request.headers['x-api-key'] ? 'with' : 'without'} a key`);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const args of [
        ['flag', ITEM, '--note', 'escalate'],
        ['note', ITEM, 'hello'],
      ]) {
        const r = await cli.run(['suspense', ...args], { env: { LEDGER_BASE_URL: url } });
        const path = `/v1/suspense/${ITEM}/${args[0] === 'flag' ? 'flag' : 'notes'}`;
        const instead =
          args[0] === 'flag'
            ? 'resolve the item with `ledger suspense resolve <suspense_id>`, or keep escalations where your team tracks them'
            : 'a note goes with the resolution: `ledger suspense resolve <suspense_id> --note TEXT`';
        expect([r.exitCode, r.stdout, r.stderr]).toEqual([
          2,
          '',
          `Error [UNSUPPORTED]: ${url} (from LEDGER_BASE_URL) has no POST ${path.replace(ITEM, '{}')} ` +
            `(it publishes no OpenAPI document, so it is taken to offer the seed interface alone): ` +
            `${instead}; nothing was sent\n`,
        ]);
      }
      // Only its /openapi.json, once, without the key: what it answered (a 404) was kept.
      expect(asked).toEqual(['GET /openapi.json without a key']);
    } finally {
      server.close();
    }
  });
});
