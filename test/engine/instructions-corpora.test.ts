import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/engine/intelligence/analyser.js';
import { readInstruction } from '../../src/engine/intelligence/instructions/rules.js';
import { analyseNarration } from '../../src/engine/intelligence/rules-analyser.js';
import { corpus, type CorpusCase, fifth, fourth, outside, sixth, third } from '../fixtures/narration-corpus.js';

/**
 * An instruction the grammar cannot read holds nothing (decisions: Narration analysis), checked on
 * every wallet instruction of every corpus. Held-out parts are included, so nothing here prints a
 * narration: only how many broke the rule.
 */
const held = (c: CorpusCase, systemPrompt: string) =>
  holdReason(
    analyseNarration({
      narration: c.narration,
      systemPrompt,
      amount: c.amount ?? 100_000,
      senderName: c.sender_name ?? 'SANDBOX SENDER',
    }),
  ) !== null;

describe('instructions the grammar cannot read, across every corpus', () => {
  const prompted = [corpus, outside, third, fourth, fifth, sixth].flat().filter((c) => c.system_prompt);

  it('an instruction read into no rule holds exactly what the narration alone would', () => {
    const unread = prompted.filter((c) => readInstruction(c.system_prompt!).rules.length === 0);
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.filter((c) => held(c, c.system_prompt!) !== held(c, '')).length, 'narrations are not printed').toBe(
      0,
    );
  });

  it('no legitimate payment is held by its instruction unless the instruction was read into a rule', () => {
    const heldByPrompt = prompted.filter((c) => !c.held && held(c, c.system_prompt!) && !held(c, ''));
    expect(heldByPrompt.filter((c) => readInstruction(c.system_prompt!).rules.length === 0).length).toBe(0);
  });
});
