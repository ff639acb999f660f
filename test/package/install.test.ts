import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a consumer gets it: `npm pack` of this tree installed into an empty project. This
 * repository's lockfile stays behind (so would any `overrides`), so a consumer gets whatever the
 * registry holds today for the ranges in package.json; a dependency that moves to a newer Node
 * shows up here first. Needs the npm registry (or an npm cache holding every package the ranges
 * resolve to).
 *
 * `--ignore-scripts` leaves better-sqlite3 uncompiled: compiling it takes about two minutes and
 * says nothing about which versions npm picks. `ledger --version` and the package entry load no
 * database, so both still run.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const OWN = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
// fastify depends on semver, so it is always installed; it is npm's own reading of a range.
const semver = createRequire(join(ROOT, 'package.json'))('semver') as {
  satisfies(version: string, range: string): boolean;
};

let dir = '';
let install = { exitCode: 0, output: '' };

/** npm as a consumer runs it: none of the settings `npm test` hands its scripts (this package's prefix, its name). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (/^npm_/i.test(name) && !/^npm_config_(cache|userconfig|registry)$/i.test(name)) delete env[name];
  delete env.INIT_CWD;
  return env;
}

async function npm(args: string[], cwd: string) {
  const result = await execa('npm', args, { cwd, env: npmEnv(), extendEnv: false, reject: false, all: true });
  return { exitCode: result.exitCode ?? 1, output: result.all ?? '' };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-pack-'));
  // dist/ is already built (`npm test` builds first); the prepare script would build it again.
  const pack = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
  expect(pack.exitCode, pack.output).toBe(0);
  const tarball = join(
    dir,
    (JSON.parse(pack.output.slice(pack.output.indexOf('['))) as { filename: string }[])[0]!.filename,
  );

  const project = join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true })}\n`,
  );
  install = await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', tarball], project);
  expect(
    install.exitCode,
    `npm install of the packed tarball failed (is the npm registry reachable?):\n${install.output}`,
  ).toBe(0);
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`installing the packed package on Node ${process.version}`, () => {
  const project = () => join(dir, 'consumer');

  it('warns of no engine, and every installed package accepts this Node', async () => {
    const lock = JSON.parse(readFileSync(join(project(), 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { optional?: boolean }>;
    };
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      // An optional package for another platform is in the lockfile but not installed.
      if (!path || (entry.optional && !existsSync(join(project(), path)))) continue;
      const manifest = JSON.parse(readFileSync(join(project(), path, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        engines?: { node?: string };
      };
      const wanted = manifest.engines?.node;
      if (wanted && !semver.satisfies(process.version, wanted))
        refused.push(`${manifest.name}@${manifest.version} wants node ${wanted} (${path})`);
    }
    expect(refused).toEqual([]);
    expect(install.output).not.toContain('EBADENGINE');

    const ls = await npm(['ls', '--all'], project());
    expect(ls.exitCode, ls.output).toBe(0);
  });

  it('runs the installed ledger command and loads the package entry', async () => {
    const version = await execa(process.execPath, [join(project(), 'node_modules', '.bin', 'ledger'), '--version'], {
      cwd: project(),
      reject: false,
    });
    expect(version.stderr).toBe('');
    expect(version.stdout).toBe(OWN.version);

    const entry = await execa(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(OWN.name)}); console.log(typeof m.startSandbox)`,
      ],
      { cwd: project(), reject: false },
    );
    expect(entry.stderr).toBe('');
    expect(entry.stdout).toBe('function');
  });
});
