#!/usr/bin/env node
// CommonJS (bin/package.json): a client command then runs without Node's ES module loader (src/main/launch.ts).
require('../dist/launch.cjs').launch(process.argv);
