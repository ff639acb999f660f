import { describe, expect, it } from 'vitest';
import { commandIn } from '../helpers/io.js';
import { useSandbox } from '../helpers/sandbox.js';

/**
 * Typed values the client cannot send: a header value HTTP cannot carry (Node refuses it), or a base
 * URL that is not http(s). Each was reported as a sandbox that cannot be reached (exit 3), which a
 * script waits for or retries; each is a usage error naming the value, and nothing is sent.
 */
const t = useSandbox({ listen: true });
const run = (args: string[], key = t.key) =>
  commandIn('/nonexistent', args, { env: { LEDGER_BASE_URL: t.baseUrl!, LEDGER_API_KEY: key } });
const clock = async () => (await t.call('GET', '/sandbox/clock')).body.data.offset_seconds;

describe('a header value HTTP cannot carry', () => {
  it('an --idempotency-key with a character HTTP headers cannot carry is a usage error that names it, and nothing moves', async () => {
    // Sent anyway, the request fails before it leaves, and looks like an unreachable sandbox (exit 3).
    const advanced = await run(['sandbox', 'clock', 'advance', '1h', '--idempotency-key', 'rent-Ọlá']);
    expect([advanced.exitCode, advanced.stdout, advanced.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: --idempotency-key: "Ọ" (U+1ECC) cannot be sent in an HTTP header; use letters, digits, - and _\n',
    ]);
    const broken = await run(['sandbox', 'clock', 'advance', '1h', '--idempotency-key', 'day\n2']);
    expect([broken.exitCode, broken.stderr]).toEqual([
      2,
      'Error [USAGE]: --idempotency-key: a control character (U+000A) cannot be sent in an HTTP header; use letters, digits, - and _\n',
    ]);
    expect(await clock()).toBe(0);
    // Latin-1 goes as it is.
    expect((await run(['sandbox', 'clock', 'advance', '1h', '--idempotency-key', 'loyer-été'])).exitCode).toBe(0);
    expect(await clock()).toBe(3600);
  });

  it('an API key pasted with curly quotes is a usage error that names the quote', async () => {
    // Sent anyway, the request fails before it leaves, and looks like an unreachable sandbox.
    const read = await run(['sandbox', 'clock'], `‘${t.key}’`);
    expect([read.exitCode, read.stdout, read.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: the API key (--api-key or LEDGER_API_KEY): "‘" (U+2018) cannot be sent in an HTTP header; ' +
        'was it pasted with quotes or spaces around it?\n',
    ]);
  });
});

describe('a base URL without http://', () => {
  it.each([
    ['localhost:4010', 'http://localhost:4010?'],
    ['ftp://127.0.0.1:4010', 'http://127.0.0.1:4010?'],
  ])('LEDGER_BASE_URL=%s is a usage error that shows the URL meant', async (url, meant) => {
    // Sent as it is, the URL fails as unreachable (exit 3), which hides the slip.
    const read = await commandIn('/nonexistent', ['sandbox', 'clock'], {
      env: { LEDGER_BASE_URL: url, LEDGER_API_KEY: t.key },
    });
    expect([read.exitCode, read.stdout, read.stderr]).toEqual([
      2,
      '',
      `Error [USAGE]: base URL ${url} is not an http:// or https:// URL (from LEDGER_BASE_URL): ${meant}\n`,
    ]);
  });
});
