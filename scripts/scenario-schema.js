// `npm run schema`: writes schema/scenario.schema.json, the JSON Schema of scenario files that the
// package ships for editors, from the zod schema in src/scenario/schema.ts (a test checks that the
// committed file is what this writes).
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchema } from '../dist/scenario/schema.js';

writeFileSync(
  new URL('../schema/scenario.schema.json', import.meta.url),
  `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`,
);
