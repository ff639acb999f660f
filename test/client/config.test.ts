import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigSources, requireKey, resolveConfig } from '../../src/client/config.js';
import { isLoopback } from '../../src/client/loopback.js';

/** Where each value comes from, and which keys may go to which URL. */
const FILE_URL = 'http://127.0.0.1:4555';
const FILE_KEY = 'svc_test_file';
const GIVEN_URL = 'http://127.0.0.1:4666';
const GIVEN_KEY = 'svc_test_given';

let root: string;
let cwd: string;
let file: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ledger-config-'));
  cwd = join(root, 'project');
  mkdirSync(cwd);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A state file in the folder above `cwd`, as `sandbox start` writes it unless told otherwise. */
function plant(options: { url?: string; mode?: number; dirMode?: number } = {}): void {
  const dir = join(root, '.ledger');
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, options.dirMode ?? 0o700);
  file = join(dir, 'sandbox.json');
  writeFileSync(file, JSON.stringify({ base_url: options.url ?? FILE_URL, api_key: FILE_KEY, db: 'x' }));
  chmodSync(file, options.mode ?? 0o600);
}

/** resolveConfig from `cwd`, whose search for state stops below the temporary folder (a stray /tmp/.ledger is not the test's). */
const resolve = (sources: Partial<ConfigSources> = {}) =>
  resolveConfig({ cwd, ...sources, env: { LEDGER_CEILING_DIRECTORIES: tmpdir(), ...sources.env } });

/** `Error [CODE]: message` of what `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as { code?: string }).code ?? 'USAGE'}: ${(error as Error).message}`;
  }
  throw new Error('not refused');
}

describe('resolveConfig: a key goes only to the URL from the same source', () => {
  it('takes the URL and the key from flags, from the environment, or from a trusted state file, and says which', () => {
    plant();
    expect(resolve({ baseUrl: GIVEN_URL, apiKey: GIVEN_KEY })).toMatchObject({
      baseUrl: GIVEN_URL,
      apiKey: GIVEN_KEY,
      source: 'flag',
      keySource: 'flag',
      stateFile: file,
    });
    // Commander hands the environment's value in as the flag's: it is still the environment's.
    const env = { LEDGER_BASE_URL: GIVEN_URL, LEDGER_API_KEY: GIVEN_KEY };
    expect(resolve({ baseUrl: GIVEN_URL, apiKey: GIVEN_KEY, env })).toMatchObject({ source: 'env', keySource: 'env' });
    expect(resolve({ apiKey: GIVEN_KEY, env: { LEDGER_BASE_URL: GIVEN_URL } })).toMatchObject({
      baseUrl: GIVEN_URL,
      apiKey: GIVEN_KEY,
      source: 'env',
      keySource: 'flag',
    });
    expect(resolve()).toMatchObject({
      baseUrl: FILE_URL,
      apiKey: FILE_KEY,
      source: 'state',
      keySource: 'state',
      stateFile: file,
    });
  });

  it("never sends a given key to the state file's URL: without a given URL it is BASE_URL_REQUIRED, naming the file", () => {
    plant();
    expect(refusal(() => resolve({ apiKey: GIVEN_KEY, env: { LEDGER_API_KEY: GIVEN_KEY } }))).toBe(
      `BASE_URL_REQUIRED: LEDGER_API_KEY is set but no base URL is: ` +
        `a key you give is sent only to a URL you give (--base-url or LEDGER_BASE_URL), never to the one in ${file}; ` +
        `set LEDGER_BASE_URL to the URL this key is for, or unset LEDGER_API_KEY to use ${file} with its own key`,
    );
    expect(refusal(() => resolve({ apiKey: GIVEN_KEY }))).toBe(
      `BASE_URL_REQUIRED: --api-key is given but no base URL is: ` +
        `a key you give is sent only to a URL you give (--base-url or LEDGER_BASE_URL), never to the one in ${file}; ` +
        `pass --base-url to the URL this key is for, or leave out --api-key to use ${file} with its own key`,
    );
  });

  it('does not send a given key to the default URL either', () => {
    expect(refusal(() => resolve({ env: { LEDGER_API_KEY: GIVEN_KEY } }))).toBe(
      'BASE_URL_REQUIRED: LEDGER_API_KEY is set but no base URL is: ' +
        'a key you give is sent only to a URL you give (--base-url or LEDGER_BASE_URL); set LEDGER_BASE_URL to the URL this key is for',
    );
    // Nothing given and no state: the default URL, and no key (NO_SANDBOX when one is needed).
    const config = resolve();
    expect(config).toMatchObject({
      baseUrl: 'http://127.0.0.1:4010',
      apiKey: undefined,
      source: 'default',
      keySource: undefined,
      stateFile: undefined,
    });
    expect(refusal(() => requireKey(config, {}, cwd))).toMatch(/^NO_SANDBOX: no sandbox state found in /);
  });

  it("sends the state file's key only to the state file's URL", () => {
    plant();
    const elsewhere = resolve({ baseUrl: GIVEN_URL });
    expect(elsewhere).toMatchObject({
      baseUrl: GIVEN_URL,
      apiKey: undefined,
      source: 'flag',
      keySource: undefined,
      stateFile: file,
    });
    expect(refusal(() => requireKey(elsewhere, {}, cwd))).toBe(
      `USAGE: no API key for ${GIVEN_URL}: set LEDGER_API_KEY (or pass --api-key); the key in ${file} is sent only to ${FILE_URL}`,
    );
    for (const same of [FILE_URL, `${FILE_URL}/`, 'http://127.0.0.1:4555//']) {
      expect(resolve({ baseUrl: same })).toMatchObject({
        baseUrl: FILE_URL,
        apiKey: FILE_KEY,
        source: 'flag',
        keySource: 'state',
      });
    }
  });

  it('refuses a state file that others can write, or whose folder they can, with STATE_FILE_UNTRUSTED naming it', () => {
    const outs = "(set LEDGER_HOME to your sandbox's .ledger folder, or LEDGER_BASE_URL and LEDGER_API_KEY)";
    plant({ mode: 0o620 });
    expect(refusal(() => resolve())).toBe(
      `STATE_FILE_UNTRUSTED: ${file} is writable by other users (mode 0620); not using it ${outs}`,
    );
    rmSync(join(root, '.ledger'), { recursive: true });
    plant({ dirMode: 0o1777 });
    expect(refusal(() => resolve())).toBe(
      `STATE_FILE_UNTRUSTED: ${join(root, '.ledger')} is writable by other users (mode 0777); not using ${file} ${outs}`,
    );
  });

  it.skipIf(process.getuid?.() !== 0)(
    "refuses a state file another user owns (as root, who can give it to uid 65534), and one in another user's folder",
    () => {
      plant();
      chownSync(file, 65534, 65534);
      expect(refusal(() => resolve())).toMatch(
        /^STATE_FILE_UNTRUSTED: \S+sandbox\.json is owned by another user \(uid 65534\); not using it /,
      );
      chownSync(file, 0, 0);
      chownSync(join(root, '.ledger'), 65534, 65534);
      expect(refusal(() => resolve())).toMatch(
        /^STATE_FILE_UNTRUSTED: \S+\.ledger is owned by another user \(uid 65534\); not using \S+sandbox\.json /,
      );
    },
  );

  it("refuses a state file naming a URL beyond loopback; a given URL anywhere stays the user's choice", () => {
    plant({ url: 'https://ledger.example.com' });
    expect(refusal(() => resolve())).toMatch(
      /^STATE_FILE_UNTRUSTED: \S+ names https:\/\/ledger\.example\.com, which is not a loopback address \(127\.0\.0\.0\/8, ::1 or localhost\); not using it /,
    );
    // Not trusted, so its key does not follow even a --base-url equal to its URL.
    expect(resolve({ baseUrl: 'https://ledger.example.com' })).toMatchObject({
      apiKey: undefined,
      keySource: undefined,
    });
    expect(resolve({ baseUrl: 'https://ledger.example.com', apiKey: GIVEN_KEY })).toMatchObject({
      apiKey: GIVEN_KEY,
      keySource: 'flag',
    });
  });
});

describe('isLoopback', () => {
  it('is 127.0.0.0/8, ::1 and localhost, as a URL names them; a name that starts with 127. is not', () => {
    const host = (url: string) => new URL(url).hostname;
    for (const url of [
      'http://127.0.0.1:4010',
      'http://127.9.8.7',
      'http://[::1]:4010',
      'http://localhost:4010',
      'http://LOCALHOST',
      'http://127.1',
    ])
      expect([url, isLoopback(host(url))]).toEqual([url, true]);
    for (const url of [
      'http://10.255.255.1:1',
      'http://127.0.0.1.example',
      'http://128.0.0.1',
      'http://[::2]',
      'http://localhost.example',
      'http://0.0.0.0',
    ])
      expect([url, isLoopback(host(url))]).toEqual([url, false]);
    expect([isLoopback('::1'), isLoopback('127.0.0.1'), isLoopback('0.0.0.0')]).toEqual([true, true, false]);
  });
});
