import { Command } from '../../cli/command.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { requireKey, resolveConfig } from '../../client/config.js';
import { UnreachableError } from '../../client/errors.js';
import {
  checkState,
  findStateFile,
  MEMORY_LOCK,
  readState,
  stateDirFor,
  untrustedState,
  writeState,
} from '../../client/state.js';
import { ApiClient } from '../../client/http.js';
import { redactDatabase } from '../../api/database-url.js';
import { singleQuoted } from '../../client/shell-quote.js';
import type { FoundServer } from '../../sandbox/process.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';
import { fitted } from '../../text/wrap.js';

export function stopCommand(): Command {
  return new Command('stop')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('ledger sandbox stop'))
    .action(action(runStop));
}

/**
 * The sandbox of this directory, found the same way by `stop` and `status`, from a state file that
 * checkState trusts (`stop` signals the pid it names): `status` passes over one it does not.
 */
async function localServer(
  io: Io,
  stateFile: string | undefined,
  untrusted: 'refuse' | 'pass over',
): Promise<FoundServer | undefined> {
  const checked = stateFile ? checkState(stateFile) : undefined;
  if (checked?.problem) {
    if (untrusted === 'refuse') throw untrustedState(checked.problem);
    return undefined;
  }
  const { findServer } = await import('../../sandbox/process.js');
  return findServer(checked?.state, stateFile ? dirname(stateFile) : stateDirFor(io.cwd, io.env), MEMORY_LOCK);
}

export async function runStop(io: Io, options: { json?: boolean }): Promise<void> {
  const file = findStateFile(io.cwd, io.env);
  let found = await localServer(io, file, 'refuse');
  if (found) {
    // Its owner file may outlive it (SIGKILL): stop the process only while it holds that lock (not a reused pid).
    const { isClaimed } = await import('../../engine/db/open-storage.js');
    if (!isClaimed(found.lock)) found = undefined;
  }
  if (!found) {
    if (options.json) io.stdout.write(`${JSON.stringify({ stopped: false, pid: null })}\n`);
    else
      io.stderr.write(
        fitted(
          io.stderr,
          file || existsSync(stateDirFor(io.cwd, io.env))
            ? 'No sandbox is running.\n'
            : 'No sandbox was started from this directory (no .ledger/ here or above): nothing to stop.\n',
        ),
      );
    return;
  }
  const { stopProcess } = await import('../../sandbox/process.js');
  const { pid } = found;
  const killed = await stopProcess(pid);
  const after = file ? readState(file) : undefined;
  if (file && after?.pid === pid) writeState(file, { ...after, pid: undefined });
  if (options.json) io.stdout.write(`${JSON.stringify({ stopped: true, pid })}\n`);
  else io.stdout.write(`Stopped the sandbox (pid ${pid})${killed ? ' after it ignored SIGTERM' : ''}.\n`);
}

interface Status {
  running: boolean;
  base_url: string;
  version: string | null;
  api_version: string | null;
  pid: number | null;
  /** The state file's database, else the one the server names: a URL's password is never shown. */
  db: string | null;
  /** 'sqlite' or 'postgres', as the server says (null: stopped, or a server too old to say). */
  backend: string | null;
  /** The answering server's own id: servers sharing a PostgreSQL database each have one. */
  server_id: string | null;
  /** Where servers share the database: how long a begun webhook attempt holds its delivery (null: not shared, or stopped). */
  lease_seconds: number | null;
  /** Where servers share the database: the webhook attempts the answering server has out now, each holding its delivery. */
  deliveries_leased_by_this_server: number | null;
}

/** What /sandbox/health says (the fields after api_version: servers of this version on). */
interface Health {
  version: string;
  api_version: string;
  backend?: string;
  server_id?: string;
  database?: string;
  lease_seconds?: number;
  deliveries_leased_by_this_server?: number;
}

const statusView: View = {
  kind: 'custom',
  quiet: (s: Status) => s.base_url,
  lines: (s: Status, fmt) => [
    `${fmt.status(s.running ? 'running' : 'stopped')} ${s.base_url}`,
    ...(s.version ? [`${fmt.dim('Version  ')} ${s.version} (API ${s.api_version})`] : []),
    ...(s.pid ? [`${fmt.dim('PID      ')} ${s.pid}`] : []),
    ...(s.server_id ? [`${fmt.dim('Server   ')} ${s.server_id}`] : []),
    ...(s.db
      ? [
          `${fmt.dim('Database ')} ${s.db}${s.backend ? ` (${s.backend === 'postgres' ? 'PostgreSQL' : 'SQLite'})` : ''}`,
        ]
      : []),
    ...(s.lease_seconds !== null
      ? [
          `${fmt.dim('Webhooks ')} each attempt leased for ${s.lease_seconds} s; ${s.deliveries_leased_by_this_server ?? 0} out from this server now`,
        ]
      : []),
  ],
};

export function statusCommand(): Command {
  return clientCommand('status')
    .addHelpText('after', examples('ledger sandbox status', 'ledger sandbox status --json'))
    .action(action(runStatus));
}

export async function runStatus(io: Io): Promise<void> {
  const config = io.config();
  const found = await localServer(io, config.stateFile, 'pass over');
  // A base URL given on purpose is the one asked about; otherwise this directory's sandbox, however found.
  const explicit = io.flags.baseUrl ?? io.env.LEDGER_BASE_URL;
  const baseUrl = explicit || !found?.base_url ? config.baseUrl : found.base_url;
  const local = found?.base_url === baseUrl ? found : undefined;
  const client = baseUrl === config.baseUrl ? io.publicClient() : new ApiClient(baseUrl, undefined);
  try {
    const health = await client.sandbox<Health>('GET', '/sandbox/health');
    const db = local?.db ?? (health.database === undefined ? null : redactDatabase(health.database));
    await io.show(
      {
        running: true,
        base_url: baseUrl,
        version: health.version,
        api_version: health.api_version,
        pid: local?.pid ?? null,
        db,
        backend: health.backend ?? null,
        server_id: health.server_id ?? null,
        lease_seconds: health.lease_seconds ?? null,
        deliveries_leased_by_this_server: health.deliveries_leased_by_this_server ?? null,
      },
      statusView,
    );
    // Running, but started elsewhere: every other command here would stop at NO_SANDBOX or a missing key.
    if (!found && !config.apiKey) {
      // A key is sent only to a URL given with it (config.ts): without LEDGER_BASE_URL it needs both.
      io.stderr.write(
        'Note: not started from this directory (no .ledger/sandbox.json here or above),\n' +
          'and no API key is set: to use it from here, set LEDGER_HOME to the .ledger\n' +
          (config.source === 'default'
            ? 'folder of the directory it was started from, or set LEDGER_BASE_URL and\nLEDGER_API_KEY.\n'
            : 'folder of the directory it was started from, or set LEDGER_API_KEY.\n'),
      );
    }
  } catch (error) {
    if (error instanceof UnreachableError) {
      await io.show(
        {
          running: false,
          base_url: baseUrl,
          version: null,
          api_version: null,
          pid: null,
          db: local?.db ?? null,
          backend: null,
          server_id: null,
          lease_seconds: null,
          deliveries_leased_by_this_server: null,
        },
        statusView,
      );
    }
    throw error;
  }
}

export function envCommand(): Command {
  // Not sandboxCommand: it sends nothing, and a shell pointed at a live service is where it is needed most.
  return clientCommand('env')
    .addHelpText('after', examples('eval "$(ledger sandbox env)"', 'ledger sandbox env --json'))
    .action(action(runEnv));
}

/** The variables `sandbox env` exports, which would otherwise outrank this folder's state file (resolveConfig). */
const EXPORTED = ['LEDGER_BASE_URL', 'LEDGER_API_KEY'] as const;

/**
 * This folder's sandbox (its state file, here or above, or LEDGER_HOME's), whatever the shell
 * already points at: the exports are for `eval`, which is run to replace those values.
 */
export async function runEnv(io: Io): Promise<void> {
  const env = { ...io.env };
  for (const name of [...EXPORTED, 'LEDGER_PROFILE']) delete env[name];
  const config = resolveConfig({ env, cwd: io.cwd });
  const data = { LEDGER_BASE_URL: config.baseUrl, LEDGER_API_KEY: requireKey(config, io.env, io.cwd) };
  const replaced = EXPORTED.filter((name) => io.env[name] && io.env[name] !== data[name]);
  if (replaced.length > 0) {
    io.stderr.write(`Note: these replace the ${replaced.join(' and ')} this environment holds.\n`);
  }
  if (io.flags.json) {
    io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  io.stdout.write(
    `export LEDGER_BASE_URL=${singleQuoted(data.LEDGER_BASE_URL)}\nexport LEDGER_API_KEY=${singleQuoted(data.LEDGER_API_KEY)}\n`,
  );
  // The state outlives the process: after `sandbox stop` the exports are right but nothing answers
  // there, and `eval` then curl -s show nothing at all. A look at the pid says so, without a request.
  const file = config.keySource === 'state' ? config.stateFile : undefined;
  const pid = file ? readState(file)?.pid : undefined;
  if (file && !(pid && (await import('../../engine/processes.js')).isAlive(pid))) {
    io.note(
      'Note: the sandbox started here is not running; these are its URL and key for when it is (`ledger sandbox start --detach` starts it again).',
    );
  }
}
