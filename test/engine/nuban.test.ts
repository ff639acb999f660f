import { describe, expect, it } from 'vitest';
import { isValidNuban, makeNuban, nubanCheckDigit } from '../../src/engine/wallets/nuban.js';

describe('NUBAN check digit', () => {
  it('matches the CBN worked example (bank 011, serial 000001457 → 0000014579)', () => {
    expect(nubanCheckDigit('011', '000001457')).toBe('9');
    expect(isValidNuban('0000014579', '011')).toBe(true);
  });

  it('rejects a number whose last digit is off by one', () => {
    expect(isValidNuban('0000014578', '011')).toBe(false);
  });

  it('depends on the bank code', () => {
    const account = makeNuban('035', '123456789');
    expect(isValidNuban(account, '035')).toBe(true);
    expect(isValidNuban(account, '058')).toBe(nubanCheckDigit('058', '123456789') === account[9]);
  });

  it('refuses malformed input', () => {
    expect(isValidNuban('12345', '035')).toBe(false);
    expect(isValidNuban('12345678901', '035')).toBe(false);
    expect(() => nubanCheckDigit('35', '123456789')).toThrow(RangeError);
  });
});
