import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/own-cache.ts'],
    // One PostgreSQL server for the run; every test that needs one makes its own database on it.
    globalSetup: ['test/helpers/postgres-global.ts'],
    // Generous: with a file per core, an e2e test shares the machine with another file's sandbox.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // A file per core. Vitest's default leaves one core idle, and on CI's 2 cores that ran the
    // files one at a time (584 s; 424 s with both). Every file works in its own temporary
    // directories, on port 0 and its own databases, so files never share state.
    maxWorkers: Math.max(1, availableParallelism()),
    // The JSON report lets .ci/run print a plain 'N passed, N failed' line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
