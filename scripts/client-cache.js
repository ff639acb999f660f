// Run by scripts/client-bundles.js (npm run build), in a process of its own, stdout ignored: writes the
// code cache of every client command bundle (dist/command.NAME.cjs.cache; see src/main/code-cache.ts).
// It starts a throw-away sandbox (`sandbox start --detach --memory` in a temporary folder), loads
// every bundle, runs sample invocations of each command through its bundle's `main` (as people and
// scripts run them: --json, --quiet and tables; a command without a sample runs as `PATH --json`,
// whatever the sandbox answers), then keeps V8's bytecode of every function compiled by then. What
// the samples never call compiles on its first call, as without a cache.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle, writeCodeCache } from '../dist/main/code-cache.js';
import { externalsOf } from '../dist/launch.cjs';
import { EXAMPLES, REPEATED_SCENARIO } from './scenario-samples.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/ledger.js', import.meta.url));
const list = JSON.parse(readFileSync(join(DIST, 'commands.json'), 'utf8'));
const { bundles } = list;

const wallet = (reference) => [
  'wallets',
  'create',
  '--customer-reference',
  reference,
  '--first-name',
  'Ada',
  '--last-name',
  'Obi',
  '--email',
  `${reference}@example.com`,
];
const views = (...words) => [words, [...words, '--json'], [...words, '--quiet']];
/** Samples by command path; `$A`, `$B` (wallets) and `$TX` (a transaction) are filled in. */
const SAMPLES = {
  'wallets create': [wallet('cache-c1'), [...wallet('cache-c2'), '--json'], [...wallet('cache-c3'), '--quiet']],
  'wallets get': views('wallets', 'get', '$A'),
  'wallets list': views('wallets', 'list'),
  'wallets unlock': [['wallets', 'unlock', '$B', '--json']],
  credit: views('credit', '$A', '1000'),
  transfer: views('transfer', '$A', '$B', '1'),
  'transactions list': views('transactions', 'list', '$A'),
  'transactions get': views('transactions', 'get', '$TX'),
  'agents list': views('agents', 'list'),
  'suspense list': views('suspense', 'list'),
  'webhooks list': views('webhooks', 'list'),
  'logs list': views('logs', 'list'),
  'banks list': views('banks', 'list'),
  'banks resolve': [['banks', 'resolve', '0123456785', '058']],
  'sandbox audit': [
    ['sandbox', 'audit'],
    ['sandbox', 'audit', '--json'],
  ],
  'sandbox keys': [
    ['sandbox', 'keys'],
    ['sandbox', 'keys', '--json'],
  ],
  'sandbox clock': [
    ['sandbox', 'clock'],
    ['sandbox', 'clock', '--json'],
  ],
  'sandbox clock advance': [['sandbox', 'clock', 'advance', '1s', '--json']],
  'sandbox analyse': [
    ['sandbox', 'analyse', 'sch fees'],
    ['sandbox', 'analyse', 'sch fees', '--json'],
  ],
  'sandbox magic': [['sandbox', 'magic']],
  'sandbox receiver events': [
    ['sandbox', 'receiver', 'events'],
    ['sandbox', 'receiver', 'events', '--json'],
  ],
  'webhooks secret': [['webhooks', 'secret']],
  'webhooks endpoint': [
    ['webhooks', 'endpoint'],
    ['webhooks', 'endpoint', '--json'],
  ],
  // What would change the key, the secret or the data the samples use: checked and refused (no argument, or --help's parse) only.
  'sandbox keys rotate': [['sandbox', 'keys', 'rotate', '--unknown-flag']],
  'webhooks secret rotate': [['webhooks', 'secret', 'rotate', '--unknown-flag']],
  'sandbox reset': [['sandbox', 'reset', '--unknown-flag']],
  'sandbox snapshot restore': [['sandbox', 'snapshot', 'restore', '--unknown-flag']],
  'sandbox snapshot delete': [['sandbox', 'snapshot', 'delete', '--unknown-flag']],
  'sandbox snapshot save': [['sandbox', 'snapshot', 'save', '--unknown-flag']],
  'wallets close': [['wallets', 'close', '--unknown-flag']],
  // Profiles in the temporary folder's own config (XDG_CONFIG_HOME below), never the builder's; the key by its variable.
  'profiles add': [
    ['profiles', 'add', 'cache', '--base-url', '$URL', '--api-key-env', 'LEDGER_CACHE_KEY'],
    ['profiles', 'add', 'cache', '--base-url', '$URL', '--api-key-env', 'LEDGER_CACHE_KEY', '--force', '--json'],
  ],
  'profiles list': views('profiles', 'list'),
  'profiles use': [['profiles', 'use', 'cache']],
  'profiles show': views('profiles', 'show', 'cache'),
  'profiles remove': [['profiles', 'remove', 'cache']],
  whoami: views('whoami'),
  // In-process sandboxes of its own (scripts/scenario-samples.js; the repeated steps' file is written first).
  'scenario run': [['scenario', 'run', EXAMPLES, 'repeated.yaml', '--reporter', 'tap']],
};

const dir = mkdtempSync(join(tmpdir(), 'ledger-client-cache-'));
const cwd = process.cwd();
const env = { ...process.env, NO_COLOR: '1' };
for (const name of ['LEDGER_BASE_URL', 'LEDGER_API_KEY', 'LEDGER_HOME']) delete env[name];
const ledger = (...args) =>
  execFileSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
try {
  ledger('sandbox', 'start', '--detach', '--memory', '--port', '0');
  try {
    const a = ledger(...wallet('cache-a'), '--quiet');
    const b = ledger(...wallet('cache-b'), '--quiet');
    const tx = ledger('credit', a, '500000', '--quiet');
    writeFileSync(join(dir, 'repeated.yaml'), REPEATED_SCENARIO);
    const state = JSON.parse(readFileSync(join(dir, '.ledger', 'sandbox.json'), 'utf8'));
    const fill = (word) => word.replace('$A', a).replace('$B', b).replace('$TX', tx).replace('$URL', state.base_url);
    process.chdir(dir);
    for (const name of ['LEDGER_BASE_URL', 'LEDGER_API_KEY', 'LEDGER_HOME', 'LEDGER_PROFILE']) delete process.env[name];
    process.env.XDG_CONFIG_HOME = join(dir, 'config');
    process.env.LEDGER_CACHE_KEY = state.api_key;
    process.env.NO_COLOR = '1';
    const loaded = new Map();
    for (const [path, file] of Object.entries(bundles)) {
      const bundle = join(DIST, file);
      if (!loaded.has(bundle)) loaded.set(bundle, loadBundle(bundle, await externalsOf(file, list)).exports);
      for (const words of SAMPLES[path] ?? [[...path.split(' '), '--json']]) {
        await loaded.get(bundle).main([process.execPath, BIN, ...words.map(fill)]);
        // A sample named above must do what it does for people (a refused flag: exit 2).
        const expected = words.includes('--unknown-flag') ? 2 : 0;
        if (SAMPLES[path] && (process.exitCode ?? 0) !== expected)
          throw new Error(`the sample \`ledger ${words.join(' ')}\` exited ${process.exitCode}, not ${expected}`);
        process.exitCode = undefined;
      }
    }
    for (const bundle of loaded.keys()) writeCodeCache(bundle);
  } finally {
    process.chdir(cwd);
    ledger('sandbox', 'stop');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
