import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError, startSandbox } from '../../src/index.js';
import { BIN, type Cli, cleanEnv, closedPort, createCli, watchOutput } from '../helpers/cli.js';
import { type Certificate, makeAuthority, makeCertificate } from '../helpers/tls.js';

/** A shared sandbox (decisions: Shared sandbox over TLS): beyond loopback only over TLS or with --insecure; the local CLI pins the certificate. */

let certs: string;
let cert: Certificate;
beforeAll(() => {
  certs = mkdtempSync(join(tmpdir(), 'ledger-tls-'));
  cert = makeCertificate(certs);
});
afterAll(() => rmSync(certs, { recursive: true, force: true }));

interface Detached {
  base_url: string;
  api_key: string;
  pid: number;
  log_file: string;
  public_url?: string;
  profiles_add?: string;
}

async function startDetached(cli: Cli, args: string[]): Promise<{ details: Detached; stderr: string }> {
  const r = await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json', ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return { details: JSON.parse(r.stdout) as Detached, stderr: r.stderr };
}

/** Whether anything accepts a connection on 127.0.0.1:port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** `ledger ARGS` from a folder with no sandbox state, pointed at a sandbox through the environment. */
async function fromElsewhere(args: string[], env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-teammate-'));
  try {
    const r = await execa(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: cleanEnv(env),
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const createWallet = [
  'wallets',
  'create',
  '--customer-reference',
  'tls-1',
  '--first-name',
  'Ada',
  '--last-name',
  'Obi',
  '--email',
  'ada@example.ng',
  '--quiet',
];

describe('sandbox start --public refuses to listen in clear text', () => {
  it('without TLS or --insecure: TLS_REQUIRED (exit 2) naming both ways out, nothing listening, no state file', async () => {
    const cli = createCli();
    try {
      const port = await closedPort();
      for (const args of [['--public'], ['--host', '0.0.0.0'], ['--public', '--detach']]) {
        const r = await cli.run(['sandbox', 'start', '--port', String(port), '--memory', ...args]);
        expect([r.exitCode, r.stdout], args.join(' ')).toEqual([2, '']);
        expect(r.stderr, args.join(' ')).toBe(
          'Error [TLS_REQUIRED]: listening on 0.0.0.0 reaches beyond this machine, where API keys and money would travel in clear text: ' +
            'give --tls-cert <pem> and --tls-key <pem> to serve HTTPS, or --insecure for a test server on a trusted network\n',
        );
        expect(await listening(port)).toBe(false);
        expect(existsSync(join(cli.dir, '.ledger', 'sandbox.json'))).toBe(false);
      }
    } finally {
      cli.cleanup();
    }
  });

  it('a certificate without its key, an unreadable file or a key of another certificate: exit 2 before anything is opened', async () => {
    const cli = createCli();
    const other = makeCertificate(certs, { name: 'other' });
    try {
      const cases: [string[], string][] = [
        [['--tls-cert', cert.certPath], '--tls-cert needs --tls-key: a certificate and its private key go together'],
        [['--tls-key', cert.keyPath], '--tls-key needs --tls-cert: a certificate and its private key go together'],
        [
          ['--tls-cert', join(certs, 'missing.pem'), '--tls-key', cert.keyPath],
          `--tls-cert ${join(certs, 'missing.pem')} cannot be read (ENOENT)`,
        ],
        [
          ['--tls-cert', cert.certPath, '--tls-key', other.keyPath],
          `--tls-key ${other.keyPath} is not the private key of the certificate --tls-cert ${cert.certPath}`,
        ],
        [
          ['--tls-cert', cert.keyPath, '--tls-key', cert.keyPath],
          `--tls-cert ${cert.keyPath} is not a PEM certificate (-----BEGIN CERTIFICATE-----)`,
        ],
      ];
      for (const [args, message] of cases) {
        for (const detach of [[], ['--detach']]) {
          const r = await cli.run(['sandbox', 'start', '--public', '--port', '0', '--memory', ...args, ...detach]);
          expect([r.exitCode, r.stderr], args.join(' ')).toEqual([2, `Error [USAGE]: ${message}\n`]);
          expect(existsSync(join(cli.dir, '.ledger'))).toBe(false);
        }
      }
    } finally {
      cli.cleanup();
    }
  });
});

describe('sandbox start --public over TLS', () => {
  let cli: Cli;
  let started: Awaited<ReturnType<typeof startDetached>>;
  let port: string;
  beforeAll(async () => {
    cli = createCli();
    started = await startDetached(cli, ['--public', '--tls-cert', cert.certPath, '--tls-key', cert.keyPath]);
    port = new URL(started.details.base_url).port;
  });
  afterAll(async () => {
    await cli.run(['sandbox', 'stop']);
    cli.cleanup();
  });

  it('listens on every interface, and prints the line teammates run, how they get a key and how they trust the certificate', async () => {
    const { details, stderr } = started;
    expect(details.base_url).toBe(`https://127.0.0.1:${port}`);
    expect(readFileSync(details.log_file, 'utf8')).toContain(
      `ledger sandbox listening on every interface (0.0.0.0), port ${port}: https://127.0.0.1:${port} from this machine\n`,
    );
    const host = new URL(details.public_url!).hostname;
    expect(details.public_url).toBe(`https://${host}:${port}`);
    expect(details.profiles_add).toBe(`ledger profiles add team --base-url https://${host}:${port} --api-key-stdin`);
    const lines = stderr.split('\n');
    expect(lines).toContain('  ledger sandbox developers create "Their Name" --quiet');
    expect(lines).toContain(`  ${details.profiles_add}`);
    expect(lines).toContain('  export NODE_EXTRA_CA_CERTS=/path/to/cert.pem');
    expect(stderr).toContain(`teammates copy ${cert.certPath} (it holds no secret)`);
  });

  it('a teammate (another folder, LEDGER_BASE_URL and a key of their own) works over HTTPS once NODE_EXTRA_CA_CERTS trusts the certificate', async () => {
    const developer = await cli.run(['sandbox', 'developers', 'create', 'Teammate', '--quiet']);
    expect(developer.exitCode, developer.stderr).toBe(0);
    const env = { LEDGER_BASE_URL: `https://127.0.0.1:${port}`, LEDGER_API_KEY: developer.stdout.trim() };
    const untrusted = await fromElsewhere(['wallets', 'list'], env);
    expect([untrusted.exitCode, untrusted.stdout]).toEqual([2, '']);
    expect(untrusted.stderr).toMatch(
      new RegExp(
        /^Error \[CERTIFICATE_UNTRUSTED\]: the certificate of https:\/\/127\.0\.0\.1:\d+ is not accepted /.source +
          /\(DEPTH_ZERO_SELF_SIGNED_CERT: .*\); nothing was sent\. .*NODE_EXTRA_CA_CERTS/.source,
      ),
    );
    const trusted = { ...env, NODE_EXTRA_CA_CERTS: cert.certPath };
    const created = await fromElsewhere(createWallet, trusted);
    expect(created.exitCode, created.stderr).toBe(0);
    const listed = await fromElsewhere(['wallets', 'list', '--json'], trusted);
    expect(JSON.parse(listed.stdout).items.map((w: { id: string }) => w.id)).toEqual([created.stdout.trim()]);
    // The owner's books are the owner's (decisions: Tenancy, clocks and reset): the teammate's
    // wallet is not among them.
    expect(JSON.parse((await cli.run(['wallets', 'list', '--json'])).stdout).items).toEqual([]);
  });

  it('plain HTTP to its port gets no answer', async () => {
    await expect(fetch(`http://127.0.0.1:${port}/sandbox/health`)).rejects.toThrow();
  });
});

describe('the local CLI and its own TLS sandbox', () => {
  it('works in the sandbox folder through the certificate its state file pins, and refuses a state file pinning another', async () => {
    // The pin needs no NODE_EXTRA_CA_CERTS, whoever the certificate is issued to; on a refusal nothing is sent.
    const cli = createCli();
    // Issued to a name this machine is not: only the pin can make it acceptable here.
    const elsewhere = makeCertificate(certs, { name: 'team-host', subjectAltName: 'DNS:ledger.team.example' });
    try {
      const { details } = await startDetached(cli, ['--tls-cert', elsewhere.certPath, '--tls-key', elsewhere.keyPath]);
      expect(details.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      // On loopback: nothing for teammates.
      expect(details.public_url).toBeUndefined();
      const stateFile = join(cli.dir, '.ledger', 'sandbox.json');
      const state = JSON.parse(readFileSync(stateFile, 'utf8'));
      const created = await cli.run(createWallet);
      expect(created.exitCode, created.stderr).toBe(0);
      expect((await cli.run(['wallets', 'list', '--json'])).exitCode).toBe(0);
      expect((await cli.run(['sandbox', 'status', '--quiet'])).stdout).toBe(`${details.base_url}\n`);

      const requests = () =>
        readFileSync(details.log_file, 'utf8')
          .split('\n')
          .filter((line) => line.includes(' GET /v1/wallets')).length;
      const before = requests();
      const altered = `${state.tls_fingerprint.startsWith('AA') ? 'BB' : 'AA'}${state.tls_fingerprint.slice(2)}`;
      writeFileSync(stateFile, JSON.stringify({ ...state, tls_fingerprint: altered }), { mode: 0o600 });
      const refused = await cli.run(['wallets', 'list']);
      expect([refused.exitCode, refused.stdout]).toEqual([2, '']);
      expect(refused.stderr).toBe(
        `Error [CERTIFICATE_MISMATCH]: ${details.base_url} presented a certificate (SHA-256 ${state.tls_fingerprint}) ` +
          `other than the one the sandbox state pins (${altered}), ` +
          `so something other than the sandbox started from this folder answers there; nothing was sent. ` +
          `Start this folder's sandbox again (\`ledger sandbox start --detach\`), ` +
          `or set LEDGER_BASE_URL and LEDGER_API_KEY for the one you mean\n`,
      );
      // Not even after an unpinned look: the key never went.
      expect(requests()).toBe(before);
      writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });
      expect((await cli.run(['sandbox', 'stop'])).exitCode).toBe(0);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  });
});

describe('sandbox start --public --insecure', () => {
  it('listens over plain HTTP with a loud warning, and the line teammates run says --insecure too', async () => {
    const cli = createCli();
    try {
      const { details, stderr } = await startDetached(cli, ['--public', '--insecure']);
      expect(details.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(stderr).toContain(
        'Warning: --insecure: listening on 0.0.0.0 over plain HTTP. API keys and money travel in clear text',
      );
      expect(stderr).toContain('Use it only for a test server on a trusted network');
      expect(details.profiles_add).toBe(
        `ledger profiles add team --base-url ${details.public_url} --api-key-stdin --insecure`,
      );
      expect(details.public_url).toMatch(/^http:\/\//);
      expect(stderr).not.toContain('NODE_EXTRA_CA_CERTS');
      expect((await cli.run(createWallet)).exitCode).toBe(0);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  });

  it("in the foreground: the warning and the teammates' lines on stderr", async () => {
    const cli = createCli();
    const child = execa(
      process.execPath,
      [BIN, 'sandbox', 'start', '--public', '--insecure', '--port', '0', '--memory'],
      { cwd: cli.dir, env: cleanEnv(), extendEnv: false, reject: false },
    );
    try {
      const stdout = watchOutput(child.stdout);
      const stderr = watchOutput(child.stderr);
      // Or its end, should it refuse: then the expectations below say what it printed instead.
      await Promise.race([
        Promise.all([stdout.waitFor(/Press Ctrl-C to stop/), stderr.waitFor(/--api-key-stdin --insecure\n/)]),
        child,
      ]);
      expect(stderr.text()).toMatch(/^Warning: --insecure: listening on 0\.0\.0\.0 over plain HTTP/);
      expect(stderr.text()).toMatch(
        /\n {2}ledger profiles add team --base-url http:\/\/[^ ]+:\d+ --api-key-stdin --insecure\n/,
      );
    } finally {
      child.kill('SIGTERM');
      await child;
      cli.cleanup();
    }
  });
});

describe('startSandbox with TLS', () => {
  /** GET /sandbox/health over https, trusting `ca` only. */
  const health = (url: string, ca: string) =>
    new Promise<number>((resolve, reject) => {
      request(`${url}/sandbox/health`, { ca }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });

  it('serves HTTPS with PEM text, a CA-signed certificate as well as a self-signed one', async () => {
    const dir = mkdtempSync(join(certs, 'ca-'));
    const { authority, leaf } = makeAuthority(dir);
    for (const [served, trusted] of [
      [cert, cert],
      [leaf, authority],
    ] as const) {
      const sandbox = await startSandbox({ tls: { cert: served.cert, key: readFileSync(served.keyPath) } });
      try {
        expect(sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        expect(await health(sandbox.baseUrl, trusted.cert)).toBe(200);
      } finally {
        await sandbox.stop();
      }
    }
  });

  it("refuses a bind beyond loopback without tls or insecure (TLS_REQUIRED), and a key that is not the certificate's", async () => {
    await expect(startSandbox({ host: '0.0.0.0' })).rejects.toEqual(
      new SandboxError(
        400,
        'TLS_REQUIRED',
        'listening on 0.0.0.0 reaches beyond this machine, where API keys and money would travel in clear text: ' +
          'give `tls: { cert, key }` to serve HTTPS, or `insecure: true` for a test server on a trusted network',
      ),
    );
    const other = makeCertificate(certs, { name: 'in-process-other' });
    await expect(startSandbox({ tls: { cert: cert.cert, key: other.key } })).rejects.toEqual(
      new SandboxError(400, 'VALIDATION_ERROR', 'tls.key is not the private key of the certificate tls.cert'),
    );
    const insecure = await startSandbox({ host: '0.0.0.0', insecure: true });
    try {
      expect(insecure.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await insecure.stop();
    }
  });
});
