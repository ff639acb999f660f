import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from '../../src/index.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export const BIN = resolve(import.meta.dirname, '../../bin/ledger.js');

/** A configuration and cache folder that does not exist: no profiles, nothing cached, unless a test gives its own. */
const NO_CONFIG = join(tmpdir(), 'ledger-tests-no-config-here');

/**
 * An environment without the caller's LEDGER_* settings, so tests see only what they set. Every
 * test works in a directory of its own under the temporary directory, and the search for sandbox
 * state stops there: a `.ledger/` that someone left in /tmp (or above) is never taken for the test's.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // The caller's own profiles are not the test's either (capabilities are cached per test file: test/helpers/own-cache.ts).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    LEDGER_CEILING_DIRECTORIES: tmpdir(),
    XDG_CONFIG_HOME: NO_CONFIG,
    ...extra,
  };
  for (const name of [
    'LEDGER_BASE_URL',
    'LEDGER_API_KEY',
    'LEDGER_HOME',
    'LEDGER_PROFILE',
    'LEDGER_DATABASE_URL',
    'LEDGER_PG_POOL_SIZE',
    'LEDGER_PG_STATEMENT_TIMEOUT',
    'LEDGER_PG_WEBHOOK_LEASE',
  ])
    if (!(name in extra)) delete env[name];
  return env;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface Cli {
  dir: string;
  run(args: string[], options?: { env?: Record<string, string>; input?: string }): Promise<RunResult>;
  /** Runs with --json, fails the test on a non-zero exit, and returns the parsed stdout. */
  json(args: string[]): Promise<any>;
  cleanup(): void;
}

/**
 * Runs the built `ledger` binary in its own temporary working directory (its own .ledger/ state),
 * with `defaults` in the environment of every run.
 */
export function createCli(defaults: Record<string, string> = {}): Cli {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-'));
  const cli: Cli = {
    dir,
    json: async (args) => {
      const r = await cli.run([...args, '--json']);
      if (r.exitCode !== 0) throw new Error(`ledger ${args.join(' ')} failed (${r.exitCode}): ${r.stderr}`);
      return JSON.parse(r.stdout);
    },
    run: async (args, options = {}) => {
      const result = await execa(process.execPath, [BIN, ...args], {
        cwd: dir,
        env: cleanEnv({ ...defaults, ...options.env }),
        reject: false,
        extendEnv: false,
        stripFinalNewline: false,
        input: options.input ?? '',
        timeout: 60_000,
      });
      return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  return cli;
}

/**
 * A CLI in a fresh temporary directory for each test (`each`) or for the whole file (`all`); any
 * sandbox it started there is stopped afterwards. `env` gives the environment of its runs.
 */
export function useCli(scope: 'each' | 'all' = 'all', env: () => Record<string, string> = () => ({})): Cli {
  let current: Cli | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(() => {
    current = createCli(env());
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    await current?.run(['sandbox', 'stop']);
    current?.cleanup();
  });
  return {
    get dir() {
      return current!.dir;
    },
    run: (args, options) => current!.run(args, options),
    json: (args) => current!.json(args),
    cleanup: () => current!.cleanup(),
  };
}

/**
 * The built binary pointed at an in-process sandbox (startSandbox) for the whole file, through
 * LEDGER_BASE_URL and LEDGER_API_KEY: no sandbox process to spawn, and stopped after the file.
 */
export function useSandboxCli(options: StartSandboxOptions = {}): Cli & { readonly sandbox: RunningSandbox } {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(options);
  });
  afterAll(() => sandbox?.stop());
  const cli = useCli('all', () => ({ LEDGER_BASE_URL: sandbox!.baseUrl, LEDGER_API_KEY: sandbox!.apiKey }));
  // A getter, defined rather than assigned: Object.assign would copy its value before the sandbox starts.
  return Object.defineProperty(cli, 'sandbox', { get: () => sandbox! }) as Cli & { readonly sandbox: RunningSandbox };
}

/**
 * Makes a wallet with `ledger wallets create --quiet` and returns its id, failing the test unless the
 * command exits 0. The customer is Ada Obi at `<reference>@example.com` unless `person` says otherwise.
 */
export async function createWalletWithCli(
  cli: Cli,
  reference: string,
  person: { first?: string; last?: string; email?: string } = {},
): Promise<string> {
  const { first = 'Ada', last = 'Obi', email = `${reference}@example.com` } = person;
  const made = await cli.run([
    'wallets',
    'create',
    '--customer-reference',
    reference,
    '--first-name',
    first,
    '--last-name',
    last,
    '--email',
    email,
    '-q',
  ]);
  if (made.exitCode !== 0) throw new Error(`ledger wallets create failed (${made.exitCode}): ${made.stderr}`);
  return made.stdout.trim();
}

/** The URL, key and pid of the sandbox that `sandbox start` runs from `dir`, read from the state file it wrote there. */
export function sandboxState(dir: string): { baseUrl: string; apiKey: string; pid: number } {
  const {
    base_url: baseUrl,
    api_key: apiKey,
    pid,
  } = JSON.parse(readFileSync(join(dir, '.ledger', 'sandbox.json'), 'utf8'));
  return { baseUrl, apiKey, pid };
}

/** Replaces ids, times, keys and references so output can be compared exactly. */
export function stable(text: string): string {
  return stripVTControlCharacters(text)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>')
    .replace(/svc_test_[0-9A-Za-z]{32}/g, '<key>')
    .replace(/\b\d{30}\b/g, '<reference>');
}

/** Collects a running process's stdout and resolves when it has printed something matching. */
export function watchOutput(stream: NodeJS.ReadableStream | null) {
  let text = '';
  const waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  stream?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of [...waiters]) {
      const match = text.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  return {
    text: () => text,
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve) => {
        const match = text.match(pattern);
        if (match) resolve(match);
        else waiters.push({ pattern, resolve });
      }),
  };
}

/** A loopback port that nothing listens on (found by binding port 0 and closing it). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
