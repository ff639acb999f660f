// `node --import ./test/helpers/module-trace.mjs …` records every ESM and CommonJS module the process loads,
// every script run through `vm.Script` (the bundles of scripts/bundle.js and scripts/client-bundles.js,
// as `script:FILE`), and every module of ours that runs inside a client command's bundle (as
// `bundled:/dist/PATH`, through the `globalThis.__ledgerModule` call each of them starts with).
import { register, createRequire, syncBuiltinESMExports } from 'node:module';
import { appendFileSync } from 'node:fs';
import Module from 'node:module';
import vm from 'node:vm';

register('./module-trace-hooks.mjs', import.meta.url);
const trace = (line) => {
  if (process.env.LEDGER_TRACE_FILE) appendFileSync(process.env.LEDGER_TRACE_FILE, `${line}\n`);
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  trace(`cjs:${request}`);
  return load.call(this, request, parent, isMain);
};
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    trace(`script:${typeof options === 'string' ? options : options?.filename}`);
    super(code, options);
  }
};
syncBuiltinESMExports();
globalThis.__ledgerModule = (path) => trace(`bundled:/dist/${path}`);
void createRequire;
