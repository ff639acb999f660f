import { Command } from 'commander';
import { writeState, readState } from '../../client/state.js';
import { UsageError } from '../../client/errors.js';
import { SilentFailure, EXIT } from '../errors.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples, parseDuration } from '../options.js';
import { credentialView, type View } from '../output/views.js';
import { confirm } from '../prompts.js';

interface AuditReport {
  ok: boolean;
  checked: Record<string, number>;
  problems: { check: string; message: string }[];
}

const auditView: View = {
  kind: 'custom',
  quiet: (r: AuditReport) => (r.ok ? 'ok' : 'problems'),
  lines: (r: AuditReport, fmt) => [
    r.ok ? fmt.green('Audit clean: every invariant holds.') : fmt.red(`Audit found ${r.problems.length} problem(s):`),
    ...r.problems.map((p) => `  ${fmt.red('✗')} [${p.check}] ${p.message}`),
    fmt.dim(`Checked ${Object.entries(r.checked).map(([k, v]) => `${v} ${k}`).join(', ')}.`),
  ],
};

export function auditCommand(): Command {
  return clientCommand('audit')
    .description('Check every money invariant of your books (balanced entries, balances, chains, outbox); exit 1 on any problem')
    .addHelpText('after', examples('ledger sandbox audit', 'ledger sandbox audit --json'))
    .action(action(runAudit));
}

export async function runAudit(io: Io): Promise<void> {
  const report = await io.client().sandbox<AuditReport>('GET', '/sandbox/audit');
  await io.show(report, auditView);
  if (!report.ok) throw new SilentFailure(EXIT.REFUSED);
}

export function resetCommand(): Command {
  return clientCommand('reset')
    .description("Delete your wallets, transactions, suspense items, agents and webhooks; your account, keys and clock stay, and other developers' data is untouched")
    .option('-y, --yes', 'do not ask for confirmation on a terminal')
    .addHelpText('after', examples('ledger sandbox reset --yes'))
    .action(action(runReset));
}

export async function runReset(io: Io, options: { yes?: boolean }): Promise<void> {
  if (!(await confirm(io, `Delete all wallets and transactions in the sandbox at ${io.config().baseUrl}?`, options.yes))) {
    throw new UsageError('reset cancelled');
  }
  const result = await io.client().sandbox<{ removed: Record<string, number> }>('POST', '/sandbox/reset');
  await io.show(result, {
    kind: 'custom',
    quiet: () => 'reset',
    lines: (r: { removed: Record<string, number> }, fmt) => [fmt.green('Sandbox reset.'), fmt.dim(`Removed ${Object.entries(r.removed).map(([k, v]) => `${v} ${k}`).join(', ')}.`)],
  });
}

interface KeyInfo {
  developer_id: string;
  business_name: string;
  key_hint: string;
  key_created_at: string;
}

export function keysCommand(): Command {
  const keys = clientCommand('keys')
    .description('Show the developer and key in use; `keys rotate` issues a new one')
    .addHelpText('after', examples('ledger sandbox keys', 'ledger sandbox keys rotate'))
    .action(action(runKeys));
  keys.addCommand(
    clientCommand('rotate')
      .description('Issue a new key; the old one fails at once. The sandbox state file is updated when the key came from it')
      .addHelpText('after', examples('ledger sandbox keys rotate', 'export LEDGER_API_KEY=$(ledger sandbox keys rotate --quiet)'))
      .action(action(runRotate)),
  );
  return keys;
}

export async function runKeys(io: Io): Promise<void> {
  const info = await io.client().sandbox<KeyInfo>('GET', '/sandbox/keys');
  await io.show({ ...info, api_key: io.config().apiKey ?? null }, { ...credentialView, fields: credentialView.fields.map((f) => (f.key === 'created_at' ? { ...f, key: 'key_created_at' } : f)) });
}

export async function runRotate(io: Io): Promise<void> {
  const config = io.config();
  const rotated = await io.client().sandbox<{ developer_id: string; api_key: string; created_at: string }>('POST', '/sandbox/keys/rotate');
  const state = config.stateFile ? readState(config.stateFile) : undefined;
  if (config.stateFile && state && state.api_key === config.apiKey) {
    writeState(config.stateFile, { ...state, api_key: rotated.api_key });
    io.note(`Saved the new key in ${config.stateFile}.`);
  } else {
    io.note('The old key no longer works: update LEDGER_API_KEY.');
  }
  await io.show(rotated, credentialView);
}

const clockView: View = {
  kind: 'custom',
  quiet: (c: { now: string }) => c.now,
  lines: (c: { now: string; offset_seconds: number }, fmt) => [`${c.now}  ${fmt.dim(`(${c.offset_seconds} s ahead of real time)`)}`],
};

export function clockCommand(): Command {
  const clock = clientCommand('clock')
    .description('Show your virtual clock (each developer has its own); `clock advance` moves it forward and runs whatever of yours falls due')
    .addHelpText('after', examples('ledger sandbox clock', 'ledger sandbox clock advance 5m'))
    .action(action(async (io: Io) => io.show(await io.client().sandbox('GET', '/sandbox/clock'), clockView)));
  clock.addCommand(
    clientCommand('advance')
      .description('Move your sandbox clock forward by a duration: 90, 90s, 5m, 2h or 1d')
      .argument('<duration>', 'how far: 90s, 5m, 2h, 1d')
      .addHelpText('after', examples('ledger sandbox clock advance 90s', 'ledger sandbox clock advance 2h --json'))
      .action(action(runAdvance)),
  );
  return clock;
}

export async function runAdvance(io: Io, duration: string): Promise<void> {
  const seconds = parseDuration(duration);
  await io.show(await io.client().sandbox('POST', '/sandbox/clock/advance', { body: { seconds } }), clockView);
}

export function developersCommand(): Command {
  return new Command('developers')
    .description('Other developer accounts in the same sandbox, for isolation tests')
    .addHelpText('after', examples('ledger sandbox developers create "Acme Pay"'))
    .addCommand(
      clientCommand('create')
        .description('Create a developer account and print its id and key')
        .argument('<business_name>', 'business name, used in its wallets\' account names')
        .addHelpText('after', examples('ledger sandbox developers create "Acme Pay"', 'OTHER_KEY=$(ledger sandbox developers create "Acme Pay" --quiet)'))
        .action(
          action(async (io: Io, businessName: string) => {
            const created = await io.client().sandbox('POST', '/sandbox/developers', { body: { business_name: businessName } });
            await io.show(created, credentialView);
          }),
        ),
    );
}
