import { findBank } from '../../engine/banks/banks.js';

/**
 * A bank as people read it: its name from the list the sandbox serves (`ledger banks list`), with the
 * code they typed: "Guaranty Trust Bank (058)". A code not on the list stays "bank 058".
 */
export function bankName(code: string): string {
  const bank = findBank(code);
  return bank ? `${bank.name} (${code})` : `bank ${code}`;
}
