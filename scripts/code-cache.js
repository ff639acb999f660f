// Run by scripts/bundle.js (npm run build), in a process of its own: writes the code cache of
// dist/scenario.bundle.cjs (see src/main/code-cache.ts). It runs `ledger scenario run` on the samples of
// scripts/scenario-samples.js, so that the functions they call are compiled, then
// keeps V8's bytecode of everything compiled by then. What the samples never call compiles on its
// first call, as without a cache.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCodeCache } from '../dist/main/code-cache.js';
import { main } from '../dist/main/program.js';
import { EXAMPLES, REPEATED_SCENARIO } from './scenario-samples.js';

const BUNDLE = fileURLToPath(new URL('../dist/scenario.bundle.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ledger-code-cache-'));
const cwd = process.cwd();
try {
  writeFileSync(join(dir, 'repeated.yaml'), REPEATED_SCENARIO);
  process.chdir(dir);
  await main([process.argv[0], 'ledger', 'scenario', 'run', EXAMPLES, join(dir, 'repeated.yaml'), '--reporter', 'tap']);
  if (process.exitCode)
    throw new Error(
      `the sample scenarios did not pass (exit ${process.exitCode}): run \`ledger scenario run ${EXAMPLES}\` to see why`,
    );
  writeCodeCache(BUNDLE);
} finally {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
}
