import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What a server offers is cached by its URL (src/client/capabilities.ts), and test servers reuse
// loopback ports: each test file keeps a cache of its own, in-process and in the binaries it runs,
// never the user's and never another file's.
process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), 'ledger-test-cache-'));
