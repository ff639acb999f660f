// `node --import ./test/helpers/module-trace.mjs …` records every ESM and CommonJS module the process loads.
import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
import Module from 'node:module';

register('./module-trace-hooks.mjs', import.meta.url);
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (process.env.LEDGER_TRACE_FILE) appendFileSync(process.env.LEDGER_TRACE_FILE, `cjs:${request}\n`);
  return load.call(this, request, parent, isMain);
};
void createRequire;
