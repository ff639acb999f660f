import { execa } from 'execa';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type Cli, cleanEnv, createCli, watchOutput } from '../helpers/cli.js';

const HOOK = resolve(import.meta.dirname, '../helpers/module-trace.mjs');
const HEAVY = ['fastify', 'better-sqlite3', 'zod', '@inquirer', 'kysely', 'word-list'];

/**
 * Runs the binary with every module it loads recorded, and returns the packages among them and the
 * project's own modules (paths below dist/).
 */
async function packagesLoaded(
  args: string[],
  after?: (cli: Cli) => Promise<unknown>,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{
  packages: string[];
  modules: string[];
  scripts: string[];
  files: string[];
  stdout: string;
  exitCode: number;
}> {
  const cli = createCli();
  const trace = join(cli.dir, 'trace.txt');
  try {
    const result = await execa(process.execPath, ['--import', HOOK, BIN, ...args], {
      cwd: options.cwd ?? cli.dir,
      env: cleanEnv({ LEDGER_TRACE_FILE: trace, ...(options.env ?? {}) }),
      extendEnv: false,
      reject: false,
    });
    const lines = readFileSync(trace, 'utf8').split('\n');
    const packages = new Set<string>();
    const modules = new Set<string>();
    // Bundles run through vm.Script (below dist/), and our ES modules loaded from their own files.
    const scripts = lines
      .filter((line) => line.startsWith('script:'))
      .map((line) => line.replace(/^script:.*\/dist\//, ''));
    const files = [
      ...new Set(lines.filter((line) => /^file:.*\/dist\//.test(line)).map((line) => line.replace(/^.*\/dist\//, ''))),
    ];
    for (const line of lines) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(line) ?? /^cjs:((?:@[^/]+\/)?[^./][^/]*)/.exec(line);
      // A built-in module required without its node: prefix (rolldown's import.meta.url stand-in requires 'url') is no package.
      if (match && !match[1]!.startsWith('node:') && !builtinModules.includes(match[1]!)) packages.add(match[1]!);
      const own = /\/dist\/(.+\.js)$/.exec(line);
      if (own) modules.add(own[1]!);
    }
    return {
      packages: [...packages].sort(),
      modules: [...modules].sort(),
      scripts,
      files,
      stdout: String(result.stdout),
      exitCode: result.exitCode ?? -1,
    };
  } finally {
    await after?.(cli);
    cli.cleanup();
  }
}

/** The modules the registry loads commands from (src/commands/registry.ts), as paths below dist/. */
const COMMAND_MODULES = [
  ...readFileSync(resolve(import.meta.dirname, '../../src/commands/registry.ts'), 'utf8').matchAll(
    /import\('\.\/([^']+)'\)/g,
  ),
].map((m) => `commands/${m[1]}`);

/** A copy of the package (node_modules linked), whose code caches can be spoilt. */
function packageCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'ledger-cache-'));
  const here = resolve(BIN, '../..');
  for (const part of ['bin', 'dist', 'examples', 'package.json'])
    cpSync(join(here, part), join(root, part), { recursive: true });
  symlinkSync(join(here, 'node_modules'), join(root, 'node_modules'));
  return root;
}

/** Three ways to spoil a code cache, each run in turn: one byte flipped, not a cache at all, gone. */
function spoilers(cache: string): (() => void)[] {
  const good = readFileSync(cache);
  const flipped = Buffer.from(good);
  flipped[good.length >> 1]! ^= 0xff;
  return [() => writeFileSync(cache, flipped), () => writeFileSync(cache, 'not a cache'), () => rmSync(cache)];
}

describe('fast start', () => {
  it('`ledger --version` loads no package at all', async () => {
    const { packages, stdout } = await packagesLoaded(['--version']);
    expect(stdout).toBe(JSON.parse(readFileSync(resolve(BIN, '../../package.json'), 'utf8')).version);
    expect(packages).toEqual([]);
  });

  it('client commands and `ledger --help` load no package at all (not even commander); other help loads commander and nothing heavy', async () => {
    for (const args of [
      ['wallets', 'list', '--base-url', 'http://127.0.0.1:4019', '--api-key', 'svc_test_x'],
      ['transfer', 'a', '0123456789', '100', '--base-url', 'http://127.0.0.1:4019', '--api-key', 'svc_test_x'],
      ['whoami', '--base-url', 'http://127.0.0.1:4019', '--api-key', 'svc_test_x'],
    ]) {
      expect((await packagesLoaded(args)).packages, args.join(' ')).toEqual([]);
    }
    const help = await packagesLoaded(['--help']);
    expect(help.packages).toEqual([]);
    const { assemble } = await import('../../src/main/program.js');
    const program = await assemble('');
    let text = '';
    program.configureOutput({ writeOut: (s) => (text += s) });
    program.outputHelp();
    expect(help.stdout).toBe(text.replace(/\n$/, ''));
    for (const args of [
      ['wallets', 'get', '--help'],
      ['wallets', 'list', '--colour'],
    ]) {
      const { packages } = await packagesLoaded(args);
      expect(
        packages.filter((p) => HEAVY.some((h) => p.startsWith(h))),
        args.join(' '),
      ).toEqual([]);
      expect(packages, args.join(' ')).toContain('commander');
    }
  });

  it('a command loads its own module and no other command module; --json and --quiet load no table code', async () => {
    const cli = createCli();
    try {
      expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
      const a = (
        await cli.run([
          'wallets',
          'create',
          '--customer-reference',
          't1',
          '--first-name',
          'T',
          '--last-name',
          'R',
          '--email',
          't@r.ng',
          '-q',
        ])
      ).stdout.trim();
      const b = (
        await cli.run([
          'wallets',
          'create',
          '--customer-reference',
          't2',
          '--first-name',
          'T',
          '--last-name',
          'S',
          '--email',
          's@r.ng',
          '-q',
        ])
      ).stdout.trim();
      await cli.run(['credit', a, '5000']);
      const cases: [string[], string | undefined][] = [
        [['wallets', 'get', a, '--json'], 'commands/wallets/get.js'],
        [['credit', a, '100'], 'commands/credit.js'],
        [['transfer', a, b, '100', '--quiet'], 'commands/transfer.js'],
        [['transactions', 'list', a, '--format', 'table'], 'commands/transactions/list.js'],
        [['transactions', 'list', a], 'commands/transactions/list.js'],
        [['whoami', '--json'], 'commands/whoami.js'],
        [['wallets', 'get', a, '--help'], 'commands/wallets/get.js'],
        [['--help'], undefined],
        [['wallets', '--help'], undefined],
      ];
      for (const [args, own] of cases) {
        const { modules, scripts, files, exitCode } = await packagesLoaded(args, undefined, { cwd: cli.dir });
        expect(exitCode, args.join(' ')).toBe(0);
        // A client command runs from its own bundle (scripts/client-bundles.js), with no ES module of ours; the rest from dist/main/cli.js.
        if (own)
          expect(scripts, args.join(' ')).toEqual([
            `command.${own
              .replace(/^commands\//, '')
              .replace(/\.js$/, '')
              .split('/')
              .join('-')}.cjs`,
          ]);
        if (own) expect(files, args.join(' ')).toEqual([]);
        // `ledger --help` is printed by the launcher itself (quick.ts), from dist/help.txt.
        else
          expect(files, args.join(' ')).toEqual(
            args.length === 1 ? [] : expect.arrayContaining(['main/cli.js', 'main/program.js']),
          );
        expect(
          modules.filter((m) => COMMAND_MODULES.includes(m)),
          args.join(' '),
        ).toEqual(own ? [own] : []);
        const tables = modules.filter((m) => m === 'cli/output/table.js' || m === 'cli/output/list.js');
        // A table loads the table code; a pipe's rows need none of it.
        expect(tables, args.join(' ')).toEqual(
          args[1] === 'list' && args.includes('table') ? ['cli/output/list.js', 'cli/output/table.js'] : [],
        );
        if (args[1] === 'list' && !args.includes('table'))
          expect(modules, args.join(' ')).toContain('cli/output/rows.js');
        if (args.includes('--json') || args.includes('--quiet'))
          expect(modules, args.join(' ')).not.toContain('cli/output/render.js');
        // The version (and package.json, read by version.js) is for --version and help only.
        if (own) expect(modules, args.join(' ')).not.toContain('version.js');
        // Nobody is asked anything here: the prompt code stays unloaded.
        expect(modules, args.join(' ')).not.toContain('cli/prompts.js');
        // An internal transfer loads none of a payout's modules (its fee, its prompt, its not-found explanation).
        if (args[0] === 'transfer')
          expect(
            modules.filter((m) => ['engine/fees.js', 'cli/prompts.js', 'commands/banks/explain.js'].includes(m)),
          ).toEqual([]);
      }
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  });

  it("the TOML library loads only where the profiles file is read, not where this folder's state decides", async () => {
    // `profiles list` reads it, and so does a command that a profile may direct; the others stay light.
    const config = mkdtempSync(join(tmpdir(), 'ledger-config-'));
    try {
      const env = { XDG_CONFIG_HOME: config };
      const none = await packagesLoaded(['profiles', 'list', '--json'], undefined, { env });
      expect([none.packages, none.stdout]).toEqual([[], '[]']);
      mkdirSync(join(config, 'ledger'), { mode: 0o700 });
      writeFileSync(
        join(config, 'ledger', 'config.toml'),
        'default = "team"\n[profiles.team]\nbase_url = "http://127.0.0.1:4019"\n',
        { mode: 0o600 },
      );
      for (const args of [
        ['profiles', 'list', '--json'],
        ['whoami', '--json'],
        ['wallets', 'list', '--json'],
      ]) {
        expect((await packagesLoaded(args, undefined, { env })).packages, args.join(' ')).toEqual(['smol-toml']);
      }
      const here = createCli();
      try {
        mkdirSync(join(here.dir, '.ledger'), { mode: 0o700 });
        writeFileSync(
          join(here.dir, '.ledger', 'sandbox.json'),
          JSON.stringify({ base_url: 'http://127.0.0.1:4019', api_key: 'svc_test_x' }),
          { mode: 0o600 },
        );
        expect((await packagesLoaded(['whoami', '--json'], undefined, { env, cwd: here.dir })).packages).toEqual([]);
      } finally {
        here.cleanup();
      }
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
  });

  it('`sandbox start --detach` starts the server without loading it itself', async () => {
    const { packages, stdout } = await packagesLoaded(
      ['sandbox', 'start', '--detach', '--memory', '--port', '0'],
      (cli) => cli.run(['sandbox', 'stop']),
    );
    expect(stdout).toMatch(/^Sandbox running in the background at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)\n/);
    expect(packages.filter((p) => HEAVY.some((h) => p.startsWith(h)))).toEqual([]);
  });

  it('`scenario run` runs from two bundles with their code caches, loading no module of ours from its own file', async () => {
    // Its commands' bundle (scripts/client-bundles.js) and the scenario engine with the server (scripts/bundle.js):
    // the examples and the OpenAPI document work through them.
    const cli = createCli();
    try {
      writeFileSync(
        join(cli.dir, 'openapi.yaml'),
        'name: the OpenAPI document\nsteps:\n  - request: GET /openapi.json\n' +
          '    expect: { status: 200, body.openapi: "3.1.0", body.info.title: "Wallet Ledger Service (ledger sandbox)" }\n',
      );
      const examples = resolve(BIN, '../../examples/scenarios');
      const { packages, modules, scripts, files, stdout, exitCode } = await packagesLoaded(
        ['scenario', 'run', examples, 'openapi.yaml', '--reporter', 'tap'],
        undefined,
        { cwd: cli.dir },
      );
      expect(stdout).toMatch(/^# scenarios 6\n# pass 6\n# fail 0$/m);
      expect(exitCode).toBe(0);
      // Both are scripts run by code-cache.js, not modules: neither the program, the commands, the
      // scenario engine nor the server is loaded from its own file, yet the scenarios ran.
      expect(scripts).toEqual(['command.scenario-run.cjs', 'scenario.bundle.cjs']);
      expect(files).toEqual([]);
      // The steps' commands ran inside the first (each notes itself there), the engine and the server inside the second.
      expect(modules).toEqual(
        expect.arrayContaining([
          'main/code-cache.js',
          'main/program.js',
          'commands/scenario/run.js',
          'commands/wallets/create.js',
          'commands/credit.js',
        ]),
      );
      expect(modules.filter((m) => /^(scenario|sandbox)\/|^engine\/(db|ledger|audit)\//.test(m))).toEqual([]);
      // No package is loaded from its own files but those the bundle keeps out (better-sqlite3 with its loader, word-list).
      expect(packages.filter((p) => !builtinModules.includes(p))).toEqual([
        'better-sqlite3',
        'bindings',
        'file-uri-to-path',
        'word-list',
      ]);
    } finally {
      cli.cleanup();
    }
  });

  it('`scenario run` through dist/main/cli.js runs the same scenarios from the scenario bundle alone', async () => {
    // As in a tree built by tsc alone, with no bundle list, or one whose `scenario run` bundle is gone.
    const root = packageCopy();
    try {
      for (const file of ['dist/command.scenario-run.cjs', 'dist/commands.json']) {
        rmSync(join(root, file));
        const result = await execa(
          process.execPath,
          [join(root, 'bin/ledger.js'), 'scenario', 'run', join(root, 'examples/scenarios'), '--reporter', 'tap'],
          { cwd: root, env: cleanEnv(), extendEnv: false, reject: false },
        );
        expect(result.stdout, file).toMatch(/^# scenarios 5\n# pass 5\n# fail 0$/m);
        expect(result.stderr, file).toBe('');
        expect(result.exitCode, file).toBe(0);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('V8 takes the code cache the build wrote for the bundle', async () => {
    const dist = resolve(BIN, '../../dist');
    const { stdout } = await execa(process.execPath, [
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(join(dist, 'scenario/cli.js'))}); ` +
        `const { cacheRejected } = await import(${JSON.stringify(join(dist, 'main/code-cache.js'))}); ` +
        `console.log(String(cacheRejected(${JSON.stringify(join(dist, 'scenario.bundle.cjs'))})));`,
    ]);
    expect(stdout).toBe('false');
  });

  it('a corrupt code cache, or none, for either bundle: `scenario run` compiles it from its source and runs as well', async () => {
    // A copy of the package (node_modules linked), whose cache can be spoilt.
    const root = packageCopy();
    try {
      for (const spoil of ['scenario.bundle.cjs.cache', 'command.scenario-run.cjs.cache'].flatMap((cache) =>
        spoilers(join(root, 'dist', cache)),
      )) {
        spoil();
        const result = await execa(
          process.execPath,
          [join(root, 'bin/ledger.js'), 'scenario', 'run', join(root, 'examples/scenarios'), '--reporter', 'tap'],
          { cwd: root, env: cleanEnv(), extendEnv: false, reject: false },
        );
        expect(result.stdout).toMatch(/^# scenarios 5\n# pass 5\n# fail 0$/m);
        expect(result.exitCode).toBe(0);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);

  it("each client command's bundle holds its command, the client core and output code, and no server, database or other command", () => {
    const dist = resolve(BIN, '../../dist');
    const list = JSON.parse(readFileSync(join(dist, 'commands.json'), 'utf8')) as {
      paths: string[];
      bundles: Record<string, string>;
      defaults: Record<string, string[]>;
    };
    const contents = JSON.parse(readFileSync(join(dist, 'commands.contents.json'), 'utf8')) as Record<
      string,
      { modules: string[]; packages: string[] }
    >;
    // The registry's own modules, and what a bundle may share with another command (a view it imports from that command's module).
    const shared: Record<string, string[]> = {
      'command.sandbox-clock-advance.cjs': ['commands/sandbox/clock.js'],
      'command.suspense-resolve.cjs': ['commands/suspense/list.js'],
    };
    for (const path of [
      'wallets get',
      'wallets list',
      'wallets create',
      'credit',
      'transfer',
      'transactions list',
      'sandbox audit',
      'webhooks list',
    ])
      expect(list.bundles[path], path).toBeDefined();
    for (const path of [
      'sandbox start',
      'sandbox stop',
      'scenario init',
      'completion',
      'webhooks tail',
      'logs tail',
      'wallets',
    ])
      expect(list.bundles[path], path).toBeUndefined();
    // `scenario run` holds every command a step can run, and none that starts, stops or follows a server.
    const scenarioRun = contents[list.bundles['scenario run']!]!;
    const unbundled = [
      'commands/sandbox/start.js',
      'commands/sandbox/lifecycle.js',
      'commands/scenario/init.js',
      'commands/webhooks/tail.js',
      'commands/logs/tail.js',
      'commands/completion.js',
    ];
    expect(scenarioRun.modules.filter((m) => COMMAND_MODULES.includes(m)).sort()).toEqual(
      [...new Set(COMMAND_MODULES)].filter((m) => !unbundled.includes(m)).sort(),
    );
    expect(list.defaults).toEqual({ [list.bundles['scenario run']!]: ['word-list'] });
    expect(list.paths).toEqual(expect.arrayContaining(['wallets', 'wallets get', 'sandbox start', 'completion']));
    for (const [bundle, { modules, packages }] of Object.entries(contents)) {
      expect(
        modules.filter((m) =>
          /^(sandbox|scenario|engine\/(db|events|ledger|audit))\/|^api\/(schemas|app|routes)/.test(m),
        ),
        bundle,
      ).toEqual([]);
      // Each required only where it is needed: help, a question, the profiles file.
      expect(
        packages.filter((p) => !['commander', '@inquirer/prompts', 'smol-toml'].includes(p)),
        bundle,
      ).toEqual([]);
      if (bundle === list.bundles['scenario run']) continue;
      const commands = modules.filter((m) => COMMAND_MODULES.includes(m));
      const own = Object.entries(list.bundles)
        .filter(([, b]) => b === bundle)
        .map(([path]) => path);
      expect(own.length, bundle).toBeGreaterThan(0);
      expect(
        commands.filter((m) => !(shared[bundle] ?? []).includes(m)),
        bundle,
      ).toHaveLength(1);
    }
    // Prompt code is in every bundle (a live service's typed confirmation guards any write), as a lazy
    // initialiser: the test above shows that a command that does not ask never runs it.
  });

  it('V8 takes the code cache the build wrote for the client bundles; a corrupt or missing one changes no answer', async () => {
    const here = resolve(BIN, '../..');
    const dist = join(here, 'dist');
    const { stdout } = await execa(process.execPath, [
      '--input-type=module',
      '-e',
      `const { loadBundle, cacheRejected } = await import(${JSON.stringify(join(dist, 'main/code-cache.js'))}); ` +
        `for (const b of ['command.wallets-get.cjs', 'command.credit.cjs', 'command.transfer.cjs', 'command.scenario-run.cjs']) { ` +
        `loadBundle(${JSON.stringify(dist)} + '/' + b, {}); ` +
        `console.log(String(cacheRejected(${JSON.stringify(dist)} + '/' + b))); }`,
    ]);
    expect(stdout).toBe('false\nfalse\nfalse\nfalse');
    const root = packageCopy();
    const cli = createCli();
    try {
      expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
      const w = (
        await cli.run([
          'wallets',
          'create',
          '--customer-reference',
          'cc',
          '--first-name',
          'C',
          '--last-name',
          'C',
          '--email',
          'c@c.ng',
          '-q',
        ])
      ).stdout.trim();
      const run = (args: string[]) =>
        execa(process.execPath, [join(root, 'bin/ledger.js'), ...args], {
          cwd: cli.dir,
          env: cleanEnv(),
          extendEnv: false,
          reject: false,
        });
      const expected = await run(['wallets', 'get', w, '--json']);
      expect(expected.exitCode).toBe(0);
      expect(JSON.parse(expected.stdout).id).toBe(w);
      for (const spoil of spoilers(join(root, 'dist/command.wallets-get.cjs.cache'))) {
        spoil();
        const result = await run(['wallets', 'get', w, '--json']);
        expect(result.stdout).toBe(expected.stdout);
        expect(result.stderr).toBe('');
        expect(result.exitCode).toBe(0);
      }
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);

  it('the trace itself works: `sandbox start` does load the server, from the bundle with its code cache (not from its ~1,100 module files)', async () => {
    const cli = createCli();
    const trace = join(cli.dir, 'trace.txt');
    const server = execa(process.execPath, ['--import', HOOK, BIN, 'sandbox', 'start', '--memory', '--port', '0'], {
      cwd: cli.dir,
      env: cleanEnv({ LEDGER_TRACE_FILE: trace }),
      extendEnv: false,
      reject: false,
    });
    await watchOutput(server.stdout).waitFor(/Press Ctrl-C/);
    server.kill('SIGINT');
    await server;
    const text = readFileSync(trace, 'utf8');
    expect(text).toMatch(/better-sqlite3/);
    expect(text).toMatch(/\/dist\/main\/code-cache\.js$/m);
    expect(text).toMatch(/\/dist\/scenario\/cli\.js$/m);
    // Fastify, zod, kysely and the server's own modules are inside dist/scenario.bundle.cjs.
    expect(text).not.toMatch(/node_modules\/(fastify|zod|kysely)\//);
    // (The command's own small helpers, such as sandbox/process.js, are still its own files.)
    expect(text).not.toMatch(
      /\/dist\/(sandbox\/(server|app)\.js|engine\/(ledger|transfers|audit)\/|sandbox\/routes\/)/,
    );
    rmSync(cli.dir, { recursive: true, force: true });
  });
});

describe('ledger sandbox start in the foreground', () => {
  it('logs one line per request, stops cleanly on Ctrl-C, and keeps its key across a restart', async () => {
    const cli = createCli();
    try {
      const startOnce = async () => {
        const server = execa(process.execPath, [BIN, 'sandbox', 'start', '--port', '0'], {
          cwd: cli.dir,
          env: cleanEnv(),
          extendEnv: false,
          reject: false,
        });
        const output = watchOutput(server.stdout);
        await output.waitFor(/Press Ctrl-C to stop\.\n/);
        return { server, output, banner: output.text().split('\n') };
      };
      const first = await startOnce();
      expect(first.banner[0]).toMatch(/^ledger sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.banner[1]).toMatch(/^API key {3}svc_test_\w{32} {2}\(new\)$/);
      expect(first.banner[2]).toBe(`Database  ${join(cli.dir, '.ledger', 'sandbox.db')}`);
      const state = JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8'));

      const created = await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'a',
        '--first-name',
        'A',
        '--last-name',
        'B',
        '--email',
        'a@b.ng',
        '-q',
      ]);
      expect(created.exitCode).toBe(0);
      const [logLine] = await first.output.waitFor(/^.* POST \/v1\/wallets .*$/m);
      expect(logLine).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z POST \/v1\/wallets 201 [\d.]+ms$/);

      first.server.kill('SIGINT');
      const ended = await first.server;
      expect(ended.exitCode).toBe(0);
      expect(String(ended.stdout)).toContain('sandbox stopped');
      expect(JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8')).pid).toBeUndefined();

      const second = await startOnce();
      expect(second.banner[1]).toBe(`API key   ${state.api_key}`);
      const list = await cli.run(['wallets', 'list', '--json']);
      expect(JSON.parse(list.stdout).total).toBe(1);
      second.server.kill('SIGTERM');
      expect((await second.server).exitCode).toBe(0);
    } finally {
      cli.cleanup();
    }
  });

  it('notes a webhooks tail stream once when it opens, never each time it looks for attempts', async () => {
    const cli = createCli();
    try {
      const server = execa(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--memory'], {
        cwd: cli.dir,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
      });
      const log = watchOutput(server.stdout);
      await log.waitFor(/Press Ctrl-C to stop\.\n/);
      const w = (
        await cli.run([
          'wallets',
          'create',
          '--customer-reference',
          'st',
          '--first-name',
          'S',
          '--last-name',
          'T',
          '--email',
          's@t.ng',
          '-q',
        ])
      ).stdout.trim();
      const tail = execa(process.execPath, [BIN, 'webhooks', 'tail', '--json'], {
        cwd: cli.dir,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
      });
      const followed = watchOutput(tail.stdout);
      await watchOutput(tail.stderr).waitFor(/Following/);
      // Each delivery reaches the tail through the stream's own looks for new attempts: several have run by the end.
      for (const amount of [11, 12, 13]) {
        await cli.run(['credit', w, String(amount)]);
        await followed.waitFor(new RegExp(`"amount":${amount}[,}]`));
      }
      tail.kill('SIGINT');
      expect((await tail).exitCode).toBe(0);
      server.kill('SIGINT');
      await server;
      const streamLines = log
        .text()
        .split('\n')
        .filter((line) => line.includes('/sandbox/webhook-logs/stream'));
      expect(streamLines).toEqual([
        expect.stringMatching(/^\S+ GET \/sandbox\/webhook-logs\/stream 200 stream opened$/),
      ]);
      expect(log.text()).not.toContain('/v1/webhook-logs');
    } finally {
      cli.cleanup();
    }
  });

  it('refuses a second start while one runs, and stop ends the detached one', async () => {
    const cli = createCli();
    try {
      expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
      const again = await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory']);
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toMatch(
        /^Error \[ALREADY_RUNNING\]: a sandbox is already running at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/,
      );
      const stop = await cli.run(['sandbox', 'stop', '--json']);
      expect(JSON.parse(stop.stdout)).toEqual({ stopped: true, pid: expect.any(Number) });
      expect((await cli.run(['sandbox', 'status'])).exitCode).toBe(3);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  });
});
