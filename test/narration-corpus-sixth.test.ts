import { describe, expect, it } from 'vitest';
import { SIXTH_SEED, partOf, sixth, sixthHeldOut, sixthTuning } from './fixtures/narration-corpus.js';

/** The labels each intent may carry, the only pairs a corpus entry may use. */
const LABEL_OF: Record<string, string> = {
  rent: 'Rent',
  salary: 'Salary',
  school_fees: 'School fees',
  loan_repayment: 'Loan repayment',
  refund: 'Refund',
  purchase: 'Purchase',
  savings: 'Savings',
  bills: 'Bills',
  upkeep: 'Upkeep',
  dues: 'Dues',
  medical: 'Medical',
  donation: 'Donation',
  transport: 'Transport',
  gift: 'Gift',
  payment: 'General payment',
  transfer: 'Transfer',
  unknown: 'Uncategorised',
};

const FIELDS = new Set(['narration', 'intent', 'label', 'held', 'kind', 'system_prompt', 'amount', 'sender_name']);

describe('the sixth narration corpus (narrations-sixth.json)', () => {
  it('has 200 entries with the fields of a case and nothing else', () => {
    expect(sixth).toHaveLength(200);
    for (const c of sixth) {
      expect(
        Object.keys(c).filter((key) => !FIELDS.has(key)),
        c.narration,
      ).toEqual([]);
      expect(typeof c.narration, c.narration).toBe('string');
      expect(typeof c.intent, c.narration).toBe('string');
      expect(typeof c.label, c.narration).toBe('string');
      expect(typeof c.held, c.narration).toBe('boolean');
      expect(typeof c.kind, c.narration).toBe('string');
      if (c.system_prompt !== undefined) expect(c.system_prompt.trim(), c.narration).not.toBe('');
      if (c.sender_name !== undefined) expect(c.sender_name.trim(), c.narration).not.toBe('');
      if (c.amount !== undefined) {
        expect(Number.isSafeInteger(c.amount), c.narration).toBe(true);
        expect(c.amount, c.narration).toBeGreaterThan(0);
      }
    }
  });

  it('pairs every intent with its one label', () => {
    for (const c of sixth) expect([c.intent, c.label], c.narration).toEqual([c.intent, LABEL_OF[c.intent]]);
  });

  it('has the planned number of each kind, and the held answers each kind implies', () => {
    const count = (kind: string, held?: boolean) =>
      sixth.filter((c) => c.kind === kind && (held === undefined || c.held === held)).length;
    expect({
      ordinary: count('ordinary'),
      symbols: count('symbols'),
      lookalike: count('lookalike'),
      risky: count('risky'),
      prompt: count('prompt'),
    }).toEqual({ ordinary: 60, symbols: 15, lookalike: 35, risky: 45, prompt: 45 });
    expect(count('ordinary', true)).toBe(0);
    expect(count('lookalike', true)).toBe(0);
    expect(count('risky', false)).toBe(0);
    expect(count('symbols', true)).toBe(5);
    // Symbols that say nothing are held and unread; those that carry a meaning are credited.
    for (const c of sixth.filter((c) => c.kind === 'symbols')) expect(c.held, c.narration).toBe(c.intent === 'unknown');
    // Prompts decide both ways, about half each.
    expect(count('prompt', true)).toBeGreaterThanOrEqual(18);
    expect(count('prompt', false)).toBeGreaterThanOrEqual(18);
  });

  it('gives every prompt case a prompt and no other case one', () => {
    for (const c of sixth) expect(c.system_prompt !== undefined, c.narration).toBe(c.kind === 'prompt');
  });

  it('has no two cases with the same content', () => {
    const keys = sixth.map((c) =>
      JSON.stringify([c.narration, c.system_prompt ?? '', c.amount ?? null, c.sender_name ?? '']),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('splits into a tuning part and a held-out part by its own seed', () => {
    expect(SIXTH_SEED).toBe('ledger-narrations-sixth-p13');
    expect(sixthTuning.length + sixthHeldOut.length).toBe(sixth.length);
    expect(sixthHeldOut.length).toBeGreaterThan(0);
    expect(sixthTuning.length).toBeGreaterThan(0);
    for (const c of sixthHeldOut) expect(partOf(c, SIXTH_SEED)).toBe('held-out');
    for (const c of sixth) expect(c.part).toBeUndefined();
  });
});
