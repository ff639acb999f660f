import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { sep } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Files that need the PostgreSQL test server whatever the backend under test: those that make a
 * database on it (test/helpers/postgres.ts, or two-backends.ts for engine SQL run on both). Found by
 * what they import, so a new one cannot land in the sqlite project, which never starts a server.
 */
const NEEDS_SERVER = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file.split(sep).join('/')}`)
  .filter((file) =>
    /from '\.\.\/helpers\/(postgres|postgres-kysely|two-backends)\.js'/.test(readFileSync(file, 'utf8')),
  );

/**
 * The suites that reach the sandbox through createTestSandbox/useSandbox (test/helpers/sandbox.ts),
 * which the postgres project runs again on a fresh PostgreSQL database each.
 */
const SANDBOX_SUITES = [
  'test/sandbox/**/*.test.ts',
  'test/commands/agents.test.ts',
  'test/commands/clock-view.test.ts',
  'test/commands/first-mistakes.test.ts',
  'test/commands/next-steps.test.ts',
  'test/commands/people.test.ts',
  'test/commands/replayed.test.ts',
  'test/commands/runners.test.ts',
  'test/commands/scenario-base-url.test.ts',
  'test/commands/suspense.test.ts',
  'test/commands/transfer-confirm.test.ts',
  'test/commands/typed-values.test.ts',
  'test/commands/webhooks-tail.test.ts',
];

/** Sandbox suites about SQLite's own machinery: the sqlite project alone runs them (docs/testing.md says why, file by file). */
const SQLITE_ONLY = [
  'test/sandbox/group-commit.test.ts',
  'test/sandbox/storage-faults.test.ts',
  'test/sandbox/large-ledger.test.ts',
  'test/sandbox/snapshots.test.ts',
  'test/sandbox/interrupted-attempts.test.ts',
];

/** Files under test/sandbox that open no sandbox through the helper (pure functions, or ':memory:' by hand): nothing to run again. */
const NO_TEST_SANDBOX = [
  'test/sandbox/as-is.test.ts',
  'test/sandbox/http-post.test.ts',
  'test/sandbox/signing.test.ts',
];

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/own-cache.ts', 'test/helpers/wait-defaults.ts'],
    // Generous: with a file per core, an e2e test shares the machine with another file's sandbox.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // A file per core. Vitest's default leaves one core idle, and on CI's 2 cores that ran the
    // files one at a time (584 s; 424 s with both). Every file works in its own temporary
    // directories, on port 0 and its own databases, so files never share state.
    maxWorkers: Math.max(1, availableParallelism()),
    // The JSON report lets .ci/run print a plain 'N passed, N failed' line (both projects together).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: NEEDS_SERVER },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...SANDBOX_SUITES, ...NEEDS_SERVER],
          exclude: [...SQLITE_ONLY, ...NO_TEST_SANDBOX],
          env: { LEDGER_TEST_BACKEND: 'postgres' },
          // One PostgreSQL server for the run, started only when a file of this project runs (a
          // project's global setup runs only for its queued files); every test makes its own
          // database on it.
          globalSetup: ['test/helpers/postgres-global.ts'],
        },
      },
    ],
  },
});
