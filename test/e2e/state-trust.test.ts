import { execa } from 'execa';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';

/**
 * A `.ledger/sandbox.json` in a folder above the project (as one planted in a shared /tmp would be)
 * and a stand-in sandbox on loopback that records every request it gets: which keys went where.
 */
const GUARD = resolve(import.meta.dirname, '../fixtures/loopback-only.cjs');
const ENV_KEY = 'svc_test_EnvEnvEnvEnvEnvEnvEnvEnvEnvEnvEnvE';
const FILE_KEY = 'svc_test_FileFileFileFileFileFileFileFile';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
}

async function fakeSandbox(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    received.push({ path: req.url!, headers: req.headers });
    req.resume();
    // Its /openapi.json lists the sandbox's wallet list, as a sandbox's does.
    if (req.url === '/openapi.json')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          openapi: '3.1.0',
          paths: {
            '/sandbox/wallets': {
              get: {
                parameters: [
                  { name: 'page', in: 'query' },
                  { name: 'limit', in: 'query' },
                ],
              },
            },
          },
        }),
      );
    const data =
      req.url === '/sandbox/health'
        ? { status: 'ok', version: '0.0.0', api_version: 'v1' }
        : { items: [], page: 1, limit: 20, total: 0 };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received, server };
}

let root: string;
let project: string;
let stateDir: string;
let stateFile: string;
let fake: Awaited<ReturnType<typeof fakeSandbox>>;
let other: Awaited<ReturnType<typeof fakeSandbox>>;

beforeAll(async () => {
  fake = await fakeSandbox();
  other = await fakeSandbox();
});
afterAll(async () => {
  await new Promise((done) => fake.server.close(done));
  await new Promise((done) => other.server.close(done));
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ledger-trust-'));
  project = join(root, 'project');
  stateDir = join(root, '.ledger');
  stateFile = join(stateDir, 'sandbox.json');
  mkdirSync(project);
  mkdirSync(stateDir, { mode: 0o700 });
  fake.received.length = 0;
  other.received.length = 0;
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The state file as `sandbox start` writes it (0600 in a 0700 folder), naming `baseUrl`. */
function plant(baseUrl: string, mode = 0o600): void {
  writeFileSync(stateFile, JSON.stringify({ base_url: baseUrl, api_key: FILE_KEY, db: join(stateDir, 'sandbox.db') }));
  chmodSync(stateFile, mode);
}

/** `ledger ARGS` from the project folder, with nothing beyond loopback reachable (loopback-only.cjs). */
async function ledger(args: string[], env: Record<string, string> = {}) {
  const r = await execa(process.execPath, ['--require', GUARD, BIN, ...args], {
    cwd: project,
    env: cleanEnv(env),
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: 60_000,
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const keysSent = (received: Received[]) =>
  received.map((r) => r.headers['x-api-key']).filter((key) => key !== undefined);

describe('the sandbox state of a folder above', () => {
  it('with LEDGER_API_KEY set, a state file above sends the key nowhere, and the error names the file', async () => {
    plant(fake.url);
    const r = await ledger(['wallets', 'list'], { LEDGER_API_KEY: ENV_KEY });
    expect(fake.received).toEqual([]);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error [BASE_URL_REQUIRED]: LEDGER_API_KEY is set but no base URL is: ` +
        `a key you give is sent only to a URL you give (--base-url or LEDGER_BASE_URL), never to the one in ${stateFile}; ` +
        `set LEDGER_BASE_URL to the URL this key is for, or unset LEDGER_API_KEY to use ${stateFile} with its own key\n`,
    ]);
    // With the URL given as well, the key goes there (and only there).
    const given = await ledger(['wallets', 'list', '--json'], { LEDGER_API_KEY: ENV_KEY, LEDGER_BASE_URL: other.url });
    expect([given.exitCode, keysSent(other.received), keysSent(fake.received)]).toEqual([0, [ENV_KEY], []]);
  });

  it('is used, with its own key, when it is yours, writable by you alone and names a loopback URL', async () => {
    plant(fake.url);
    const r = await ledger(['wallets', 'list', '--json']);
    expect([r.exitCode, r.stderr, keysSent(fake.received)]).toEqual([0, '', [FILE_KEY]]);
  });

  it('refuses a world-writable state file with the file named and why, before any request', async () => {
    plant(fake.url, 0o666);
    const refused =
      `Error [STATE_FILE_UNTRUSTED]: ${stateFile} is writable by other users (mode 0666); not using it ` +
      `(set LEDGER_HOME to your sandbox's .ledger folder, or LEDGER_BASE_URL and LEDGER_API_KEY)\n`;
    const r = await ledger(['wallets', 'list']);
    expect(fake.received).toEqual([]);
    expect([r.exitCode, r.stderr]).toEqual([2, refused]);
    // Nor does it give `sandbox env` its exports, or `sandbox stop` a pid to signal.
    for (const args of [
      ['sandbox', 'env'],
      ['sandbox', 'stop'],
    ]) {
      const other = await ledger(args);
      expect([args, other.exitCode, other.stdout, other.stderr]).toEqual([args, 2, '', refused]);
    }
  });

  it('is refused when its folder is writable by other users', async () => {
    plant(fake.url);
    chmodSync(stateDir, 0o777);
    const r = await ledger(['wallets', 'list']);
    expect(fake.received).toEqual([]);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      `Error [STATE_FILE_UNTRUSTED]: ${stateDir} is writable by other users (mode 0777); not using ${stateFile} ` +
        `(set LEDGER_HOME to your sandbox's .ledger folder, or LEDGER_BASE_URL and LEDGER_API_KEY)\n`,
    ]);
  });

  // Only root can give a file to another user; as root the check is the same (root owns what it writes).
  it.skipIf(process.getuid?.() !== 0)(
    'is refused when another user owns it (run as root: the file is given to uid 65534)',
    async () => {
      plant(fake.url);
      chownSync(stateFile, 65534, 65534);
      const r = await ledger(['wallets', 'list']);
      expect(fake.received).toEqual([]);
      expect([r.exitCode, r.stderr]).toEqual([
        2,
        `Error [STATE_FILE_UNTRUSTED]: ${stateFile} is owned by another user (uid 65534); not using it ` +
          `(set LEDGER_HOME to your sandbox's .ledger folder, or LEDGER_BASE_URL and LEDGER_API_KEY)\n`,
      ]);
    },
  );

  it('is refused when it names a URL beyond loopback, before any connection is tried', async () => {
    // Port 1 of an unroutable private address; loopback-only.cjs ends the run (exit 99) if it is dialled.
    for (const url of ['http://10.255.255.1:1', 'http://127.0.0.1.example:1']) {
      plant(url);
      const r = await ledger(['wallets', 'list']);
      expect([r.exitCode, r.stderr]).toEqual([
        2,
        `Error [STATE_FILE_UNTRUSTED]: ${stateFile} names ${url}, which is not a loopback address (127.0.0.0/8, ::1 or localhost); ` +
          `not using it (set LEDGER_HOME to your sandbox's .ledger folder, or LEDGER_BASE_URL and LEDGER_API_KEY)\n`,
      ]);
    }
  });

  it("with --base-url, the state file's key goes only to the file's own URL", async () => {
    plant(fake.url);
    const r = await ledger(['wallets', 'list', '--base-url', other.url]);
    expect([other.received, fake.received]).toEqual([[], []]);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      `Error [USAGE]: no API key for ${other.url}: set LEDGER_API_KEY (or pass --api-key); the key in ${stateFile} is sent only to ${fake.url}\n`,
    ]);
    // The file's own URL given as --base-url is the same destination: its key goes with it.
    const same = await ledger(['wallets', 'list', '--json', '--base-url', fake.url]);
    expect([same.exitCode, keysSent(fake.received)]).toEqual([0, [FILE_KEY]]);
  });
});

describe('sandbox status', () => {
  it('sends no key to the public health route, wherever the key came from', async () => {
    plant(fake.url);
    const fromFile = await ledger(['sandbox', 'status', '--json']);
    expect([fromFile.exitCode, JSON.parse(fromFile.stdout)]).toEqual([
      0,
      expect.objectContaining({ running: true, base_url: fake.url }),
    ]);
    const given = await ledger(['sandbox', 'status', '--json'], {
      LEDGER_BASE_URL: other.url,
      LEDGER_API_KEY: ENV_KEY,
    });
    expect(given.exitCode).toBe(0);
    expect([fake.received.map((r) => r.path), other.received.map((r) => r.path)]).toEqual([
      ['/sandbox/health'],
      ['/sandbox/health'],
    ]);
    expect([keysSent(fake.received), keysSent(other.received)]).toEqual([[], []]);
  });
});
