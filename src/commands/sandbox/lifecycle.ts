import { Command } from '../command.js';
import { UnreachableError } from '../../client/errors.js';
import { requireKey } from '../../client/config.js';
import { findStateFile, readState, writeState } from '../../client/state.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import type { View } from '../output/views.js';

export function stopCommand(): Command {
  return new Command('stop')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('ledger sandbox stop'))
    .action(action(runStop));
}

export async function runStop(io: Io, options: { json?: boolean }): Promise<void> {
  const file = findStateFile(io.cwd, io.env);
  const state = file ? readState(file) : undefined;
  const { isAlive, stopProcess } = await import('../../sandbox/process.js');
  const pid = state?.pid;
  if (!file || !state || !pid || !isAlive(pid)) {
    if (options.json) io.stdout.write(`${JSON.stringify({ stopped: false, pid: null })}\n`);
    else io.stderr.write('No sandbox is running.\n');
    return;
  }
  const killed = await stopProcess(pid);
  const after = readState(file);
  if (after?.pid === pid) writeState(file, { ...after, pid: undefined });
  if (options.json) io.stdout.write(`${JSON.stringify({ stopped: true, pid })}\n`);
  else io.stdout.write(`Stopped the sandbox (pid ${pid})${killed ? ' after it ignored SIGTERM' : ''}.\n`);
}

interface Status {
  running: boolean;
  base_url: string;
  version: string | null;
  api_version: string | null;
  pid: number | null;
  db: string | null;
}

const statusView: View = {
  kind: 'custom',
  quiet: (s: Status) => s.base_url,
  lines: (s: Status, fmt) => [
    `${fmt.status(s.running ? 'running' : 'stopped')} ${s.base_url}`,
    ...(s.version ? [`${fmt.dim('Version  ')} ${s.version} (API ${s.api_version})`] : []),
    ...(s.pid ? [`${fmt.dim('PID      ')} ${s.pid}`] : []),
    ...(s.db ? [`${fmt.dim('Database ')} ${s.db}`] : []),
  ],
};

export function statusCommand(): Command {
  return clientCommand('status')
    .addHelpText('after', examples('ledger sandbox status', 'ledger sandbox status --json'))
    .action(action(runStatus));
}

export async function runStatus(io: Io): Promise<void> {
  const config = io.config();
  const state = config.stateFile ? readState(config.stateFile) : undefined;
  const local = state?.base_url === config.baseUrl ? state : undefined;
  try {
    const health = await io.publicClient().sandbox<{ version: string; api_version: string }>('GET', '/sandbox/health');
    await io.show({ running: true, base_url: config.baseUrl, version: health.version, api_version: health.api_version, pid: local?.pid ?? null, db: local?.db ?? null }, statusView);
  } catch (error) {
    if (error instanceof UnreachableError) {
      await io.show({ running: false, base_url: config.baseUrl, version: null, api_version: null, pid: null, db: local?.db ?? null }, statusView);
    }
    throw error;
  }
}

export function envCommand(): Command {
  return clientCommand('env')
    .addHelpText('after', examples('eval "$(ledger sandbox env)"', 'ledger sandbox env --json'))
    .action(action(runEnv));
}

export async function runEnv(io: Io): Promise<void> {
  const config = io.config();
  const data = { LEDGER_BASE_URL: config.baseUrl, LEDGER_API_KEY: requireKey(config, io.env, io.cwd) };
  if (io.flags.json) {
    io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  io.stdout.write(`export LEDGER_BASE_URL='${data.LEDGER_BASE_URL}'\nexport LEDGER_API_KEY='${data.LEDGER_API_KEY}'\n`);
}
