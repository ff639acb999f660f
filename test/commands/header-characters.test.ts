import { describe, expect, it } from 'vitest';
import { commandIn } from '../helpers/io.js';
import { useSandbox } from '../helpers/sandbox.js';

/**
 * A typed value that goes in a header and that HTTP cannot carry: Node refuses to send it, and the
 * command said the sandbox could not be reached (exit 3), which a script waits for or retries. It is
 * a usage error naming the value's flag and the character; nothing is sent.
 */
const t = useSandbox({ listen: true });
const run = (args: string[], key = t.key) => commandIn('/nonexistent', args, { env: { LEDGER_BASE_URL: t.baseUrl!, LEDGER_API_KEY: key } });
const clock = async () => (await t.call('GET', '/sandbox/clock')).body.data.offset_seconds;

describe('a header value HTTP cannot carry', () => {
  it('seen: clock advance --idempotency-key "rent-Ọlá" said Error [UNREACHABLE]: cannot reach the sandbox, exit 3', async () => {
    const advanced = await run(['sandbox', 'clock', 'advance', '1h', '--idempotency-key', 'rent-Ọlá']);
    expect([advanced.exitCode, advanced.stdout, advanced.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: --idempotency-key: "Ọ" (U+1ECC) cannot be sent in an HTTP header; use letters, digits, - and _\n',
    ]);
    const broken = await run(['sandbox', 'clock', 'advance', '1h', '--idempotency-key', 'day\n2']);
    expect([broken.exitCode, broken.stderr]).toEqual([2, 'Error [USAGE]: --idempotency-key: a control character (U+000A) cannot be sent in an HTTP header; use letters, digits, - and _\n']);
    expect(await clock()).toBe(0);
    // Latin-1 goes as it is.
    expect((await run(['sandbox', 'clock', 'advance', '1h', '--idempotency-key', 'loyer-été'])).exitCode).toBe(0);
    expect(await clock()).toBe(3600);
  });

  it('seen: an API key pasted with curly quotes said the sandbox could not be reached', async () => {
    const read = await run(['sandbox', 'clock'], `‘${t.key}’`);
    expect([read.exitCode, read.stdout, read.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: the API key (--api-key or LEDGER_API_KEY): "‘" (U+2018) cannot be sent in an HTTP header; was it pasted with quotes or spaces around it?\n',
    ]);
  });
});
