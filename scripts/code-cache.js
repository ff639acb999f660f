// Run by scripts/bundle.js (npm run build), in a process of its own: writes the code cache of
// dist/scenario.bundle.cjs (see src/code-cache.ts). It runs `ledger scenario run` on the shipped
// examples (every flow of the quickstart: every kind of step, most commands and routes) and on a
// scenario of the commands a script repeats most, so that the functions they call are compiled, then
// keeps V8's bytecode of everything compiled by then. What the samples never call compiles on its
// first call, as without a cache.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCodeCache } from '../dist/code-cache.js';
import { main } from '../dist/program.js';

const BUNDLE = fileURLToPath(new URL('../dist/scenario.bundle.cjs', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../examples/scenarios', import.meta.url));
const REPEATED = ['credit ${ADA} 1000', 'transfer ${ADA} ${BOLA} 100', 'wallets get ${BOLA}', 'transactions list ${ADA} --limit 5', 'GET /v1/wallets/${ADA}'];
const SAMPLE = `name: the steps a script repeats
steps:
  - run: wallets create --customer-reference ada --first-name Ada --last-name Obi --email ada@example.com
    save: { ADA: data.id }
  - run: wallets create --customer-reference bola --first-name Bola --last-name Ade --email bola@example.com
    save: { BOLA: data.id }
${Array.from({ length: 4 }, () => REPEATED.map((step) => `  - ${step}`).join('\n')).join('\n')}
`;

const dir = mkdtempSync(join(tmpdir(), 'ledger-code-cache-'));
const cwd = process.cwd();
try {
  writeFileSync(join(dir, 'repeated.yaml'), SAMPLE);
  process.chdir(dir);
  await main([process.argv[0], 'ledger', 'scenario', 'run', EXAMPLES, join(dir, 'repeated.yaml'), '--reporter', 'tap']);
  if (process.exitCode) throw new Error(`the sample scenarios did not pass (exit ${process.exitCode}): run \`ledger scenario run ${EXAMPLES}\` to see why`);
  writeCodeCache(BUNDLE);
} finally {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
}
