import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/output/table.js';
import { type Cli, createCli } from '../helpers/cli.js';
import { type Terminal, terminal } from '../helpers/terminal.js';

/** People at a real terminal (tmux, 80 columns): prompts, Ctrl-C, confirmations and tables. */
let cli: Cli;
const open: Terminal[] = [];
const at = async (args: string[], columns = 80) => {
  const term = await terminal(args, { cwd: cli.dir, columns });
  open.push(term);
  return term;
};

beforeAll(async () => {
  cli = createCli();
  expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
});
afterAll(async () => {
  for (const term of open) await term.close();
  await cli.run(['sandbox', 'stop']);
  cli.cleanup();
});

const walletCount = async () => (await cli.json(['wallets', 'list'])).total as number;

describe('prompts at a terminal', () => {
  it('Ctrl-C at a question prints "cancelled, nothing was changed" and exits 130, with nothing created', async () => {
    const before = await walletCount();
    const term = await at(['wallets', 'create']);
    await term.waitFor(/Customer reference/);
    await term.type('ctrl-c-ref');
    await term.keys('Enter');
    await term.waitFor(/First name/);
    await term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
    const screen = await term.screen();
    expect(screen).toContain('cancelled, nothing was changed');
    expect(screen).not.toMatch(/Error \[INTERNAL\]|force closed/);
    expect(await walletCount()).toBe(before);
  });

  it('asks again, with the reason, when an answer breaks a rule, and keeps the earlier answers', async () => {
    const term = await at(['wallets', 'create', '--customer-reference', 'forgiven', '--first-name', 'Ada']);
    await term.waitFor(/Last name/);
    await term.type('Obi');
    await term.keys('Enter');
    await term.waitFor(/Email/);
    await term.type('not-an-email');
    await term.keys('Enter');
    await term.waitFor(/must be a valid email address/);
    await term.keys('C-u');
    await term.type('ada@example.com');
    await term.keys('Enter');
    expect(await term.exitCode()).toBe(0);
    const [wallet] = (await cli.json(['wallets', 'list', '--customer-reference', 'forgiven'])).items;
    expect(wallet).toMatchObject({ first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com' });
  });

  it('`wallets close` shows the balance that stays and asks; no keeps it open (exit 2), yes closes it', async () => {
    const id = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'closing',
        '--first-name',
        'Kemi',
        '--last-name',
        'Bello',
        '--email',
        'k@b.ng',
        '-q',
      ])
    ).stdout.trim();
    await cli.run(['credit', id, '123456']);
    const no = await at(['wallets', 'close', id]);
    await no.waitFor(/Close wallet \d{10}\?/);
    expect(await no.screen()).toContain('Balance 123456 (₦1,234.56) stays on the wallet');
    await no.type('n');
    await no.keys('Enter');
    expect(await no.exitCode()).toBe(2);
    expect(await no.screen()).toContain('Error [USAGE]: close cancelled: nothing was changed');
    expect((await cli.json(['wallets', 'get', id])).status).toBe('ACTIVE');

    const yes = await at(['wallets', 'close', id]);
    await yes.waitFor(/Close wallet \d{10}\?/);
    await yes.type('y');
    await yes.keys('Enter');
    expect(await yes.exitCode()).toBe(0);
    const shown = await yes.screen();
    expect(shown).toMatch(/Status +CLOSED/);
    expect(shown).toMatch(/Balance +123456 \(₦1,234\.56\)/);
    expect(shown).toMatch(/Closed +\d{4}-\d\d-\d\dT/);
    expect(shown).not.toContain('Transfers out');
  });
});

describe('tables at 80 columns', () => {
  it('fit the terminal without wrapping, with ids cut to a unique prefix; --wide keeps them whole', async () => {
    const id = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'wide-table',
        '--first-name',
        'Chukwuemeka',
        '--last-name',
        'Okonkwo-Adeyemi',
        '--email',
        'c@o.ng',
        '-q',
      ])
    ).stdout.trim();
    await cli.run([
      'credit',
      id,
      '123456789',
      '--narration',
      'School fees for the second term, Greenfield Academy, Lekki Phase 1 campus',
    ]);
    await cli.run(['credit', id, '5000', '--narration', 'rent']);
    const term = await at(['transactions', 'list', id]);
    expect(await term.exitCode()).toBe(0);
    const lines = (await term.screen()).split('\n').filter((l) => /^[┌│├└]/.test(l));
    expect(lines.length).toBe(6);
    for (const line of lines) {
      expect(displayWidth(line)).toBeLessThanOrEqual(80);
      expect(line).toMatch(/[┐│┤┘]$/);
    }
    // The long narration is cut with an ellipsis, whatever room the unique id prefixes leave it.
    expect(lines.join('\n')).toMatch(/│ School[^│]*… *│/);
    expect(lines.join('\n')).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);

    const wide = await at(['transactions', 'list', id, '--wide'], 200);
    expect(await wide.exitCode()).toBe(0);
    expect(await wide.screen()).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });
});
