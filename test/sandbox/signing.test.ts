import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../src/sandbox/webhooks/signing.js';

// The dispatcher signs each delivery and the built-in receiver verifies it right after, in the same
// process: signing.ts remembers its last signatures so the body is not hashed twice. Remembered or
// not, a signature must be the Standard Webhooks one for exactly that id, timestamp and body.
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const at = 1_700_000_000;
const body = JSON.stringify({ event_id: 'evt_1', event_type: 'ledger.credit', data: { amount: 1 } });

describe('webhook signing', () => {
  it('signs as the standardwebhooks package does, and verifies what it signed', () => {
    const header = signatureHeader([secret], 'evt_1', at, body);
    expect(header).toBe(new Webhook(secret).sign('evt_1', new Date(at * 1000), body));
    expect(verifySignature([secret], 'evt_1', String(at), body, header)).toBe(true);
  });

  it('refuses, right after signing, another body, id, timestamp or secret, and a forged signature', () => {
    const header = signatureHeader([secret], 'evt_2', at, body);
    const changed = body.replace('"amount":1', '"amount":2');
    expect(verifySignature([secret], 'evt_2', String(at), changed, header)).toBe(false);
    expect(verifySignature([secret], 'evt_3', String(at), body, header)).toBe(false);
    expect(verifySignature([secret], 'evt_2', String(at + 1), body, header)).toBe(false);
    expect(verifySignature([other], 'evt_2', String(at), body, header)).toBe(false);
    expect(verifySignature([secret], 'evt_2', String(at), body, `v1,${Buffer.alloc(32).toString('base64')}`)).toBe(
      false,
    );
    // The changed body, now signed itself, verifies; the first body still does with its own signature.
    expect(
      verifySignature([secret], 'evt_2', String(at), changed, signatureHeader([secret], 'evt_2', at, changed)),
    ).toBe(true);
    expect(verifySignature([secret], 'evt_2', String(at), body, header)).toBe(true);
  });

  it('verifies a signature it made long ago (no longer remembered) by hashing again', () => {
    const header = signatureHeader([secret, other], 'evt_old', at, body);
    for (let i = 0; i < 1000; i++) signatureHeader([secret], `evt_${i}`, at, body);
    expect(verifySignature([other], 'evt_old', String(at), body, header)).toBe(true);
    expect(verifySignature([secret], 'evt_old', String(at), `${body} `, header)).toBe(false);
  });
});
