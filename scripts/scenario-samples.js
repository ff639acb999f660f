// The scenarios the build runs to make code caches (scripts/code-cache.js for the scenario bundle,
// scripts/client-cache.js for the bundle of `scenario run`): the shipped examples (every flow of the
// quickstart: every kind of step, most commands and routes), and the commands a script repeats most.
import { fileURLToPath } from 'node:url';

export const EXAMPLES = fileURLToPath(new URL('../examples/scenarios', import.meta.url));
const REPEATED = [
  'credit ${ADA} 1000',
  'transfer ${ADA} ${BOLA} 100',
  'wallets get ${BOLA}',
  'transactions list ${ADA} --limit 5',
  'GET /v1/wallets/${ADA}',
];
/** A scenario file's text: two wallets, then the repeated steps four times. */
export const REPEATED_SCENARIO = `name: the steps a script repeats
steps:
  - run: wallets create --customer-reference ada --first-name Ada --last-name Obi --email ada@example.com
    save: { ADA: data.id }
  - run: wallets create --customer-reference bola --first-name Bola --last-name Ade --email bola@example.com
    save: { BOLA: data.id }
${Array.from({ length: 4 }, () => REPEATED.map((step) => `  - ${step}`).join('\n')).join('\n')}
`;
