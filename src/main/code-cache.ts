import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

/**
 * Runs a CommonJS bundle (dist/scenario.bundle.cjs, scripts/bundle.js; each client command's
 * dist/command.NAME.cjs, scripts/client-bundles.js) with V8's code cache.
 *
 * Node 20 compiles every ES module from its source at every start (it has no module compile
 * cache), and compiling the 2.8 MB bundle, then each function of it on its first call, took more
 * of a `scenario run` than its steps. A script compiled through `vm.Script` can instead be given
 * the bytecode V8 made for it in an earlier run (`cachedData`): the build runs sample scenarios,
 * then keeps every function compiled by then (`writeCodeCache`) in `FILE.cache` beside the bundle.
 * V8 checks that the cache is for its own version and flags and for a source of the same length,
 * and refuses it otherwise; but it trusts the rest (a release build of V8 does not check the cache's
 * checksum: a flipped byte can crash the process). So the file starts with the CRC-32 of the
 * bundle's source, the CRC-32 of the cache and the cache's length, checked first: a stale, foreign
 * or corrupt cache is never given to V8, and the bundle then compiles from its source as it would
 * without one. A bad cache costs the time it saves, never a wrong answer. CRC-32 (node:zlib), not
 * SHA-256 (node:crypto): the check is against accidents (a rebuilt bundle, a damaged file), which a
 * CRC catches (every burst of up to 32 bits, anything else but once in 4 billion), and loading
 * node:crypto cost a client command about 2 % of Node's whole start (11 M instructions; node:zlib 4 M).
 *
 * The bundle's own code runs as a CommonJS module of the bundle's file (`require`, `__filename`,
 * `__dirname`; `import.meta.url` became `pathToFileURL(__filename)` in the build). What it takes
 * from outside itself comes through `require`: `externals` first (ES modules the caller imported,
 * which a CommonJS `require` cannot load on every Node 20), then Node's own `require` (built-in
 * modules).
 */

/** The wrapper on the bundle's first line, so that its line numbers stay those of the file. */
const HEAD = '(function (exports, require, module, __filename, __dirname) {';
const TAIL = '\n})';

/** What a loaded bundle is, and how its code cache went (`undefined`: there was none to try). */
export interface LoadedBundle {
  exports: Record<string, unknown>;
  cacheRejected: boolean | undefined;
}

const DIGEST_BYTES = 12;

/** The check in front of a cache: the CRC-32 of the bundle's source, of the cache, and the cache's length. */
function digest(source: Buffer, data: Uint8Array): Buffer {
  const check = Buffer.alloc(DIGEST_BYTES);
  check.writeUInt32LE(crc32(source), 0);
  check.writeUInt32LE(crc32(data), 4);
  check.writeUInt32LE(data.length, 8);
  return check;
}

const loaded = new Map<string, { script: Script; cacheRejected: boolean | undefined }>();

/** The cache beside a bundle. */
export function cacheFileOf(file: string): string {
  return `${file}.cache`;
}

/** The cache of `source` beside `file`: its V8 data when the digest in front of it matches, `false` when it does not. */
function readCache(file: string, source: Buffer): Buffer | false | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(cacheFileOf(file));
  } catch {
    return undefined;
  }
  const data = cache.subarray(DIGEST_BYTES);
  return cache.length > DIGEST_BYTES && digest(source, data).equals(cache.subarray(0, DIGEST_BYTES)) ? data : false;
}

/**
 * Compiles and runs the CommonJS bundle `file`, with its code cache when V8 takes it.
 * @example const { exports } = loadBundle('/…/dist/scenario.bundle.cjs', { './version.js': version });
 */
export function loadBundle(file: string, externals: Record<string, unknown>): LoadedBundle {
  const source = readFileSync(file);
  const cachedData = readCache(file, source);
  const script = new Script(`${HEAD}${source.toString('utf8')}${TAIL}`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const cacheRejected =
    cachedData === undefined ? undefined : cachedData === false || script.cachedDataRejected === true;
  loaded.set(file, { script, cacheRejected });
  const own = createRequire(file);
  const require = Object.assign((id: string): unknown => (Object.hasOwn(externals, id) ? externals[id] : own(id)), own);
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    require,
    module,
    file,
    dirname(file),
  );
  return { exports: module.exports, cacheRejected };
}

/**
 * Whether V8 refused the code cache of a bundle this process loaded (`undefined`: it had none;
 * `null`: not loaded here). How a test sees that the cache the build wrote is taken.
 */
export function cacheRejected(file: string): boolean | undefined | null {
  const bundle = loaded.get(file);
  return bundle ? bundle.cacheRejected : null;
}

/**
 * Writes the code cache of a bundle loaded in this process, with every function compiled so far
 * (run what should be fast first). Replaces the file whole: a reader sees the old cache or the new.
 * @example await runSamples(); writeCodeCache(bundleFile);
 */
export function writeCodeCache(file: string): number {
  const bundle = loaded.get(file);
  if (!bundle) throw new Error(`${file} was not loaded by loadBundle in this process`);
  const data = bundle.script.createCachedData();
  const target = cacheFileOf(file);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([digest(readFileSync(file), data), data]));
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
  }
  return data.length;
}
