// Writes the table of the fields a command step's `data` can have into docs/scenarios.md, between
// its fields markers, from the API's response schemas (src/scenario/fields.ts). Run it after
// `npm run build`; a test fails while the doc's table is not what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { withFieldsTable } from '../dist/scenario/fields.js';

const doc = new URL('../docs/scenarios.md', import.meta.url);
writeFileSync(doc, withFieldsTable(readFileSync(doc, 'utf8')));
