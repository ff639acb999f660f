import { INTENTS } from '../lexicon.js';
import { type Clause, isFrom, readClauses, words } from '../prompt.js';
import { carriesReference, holdsAll, requiredReference, saysNothingNew, sentencesOf } from './grammar.js';

/** What a rule does with a payment it is about: hold it for review, refuse it, or only expect it (confidence, no hold). */
export type RuleAction = 'review' | 'reject' | 'expect';

/**
 * One rule of a wallet's instruction, as the analyser applies it and `POST /sandbox/analyse` shows it.
 * Amounts are kobo; purposes are the analyser's intents; `text` is the part of the prompt it was read from.
 */
export interface Rule {
  kind:
    | 'hold_all'
    | 'hold_above'
    | 'hold_below'
    | 'only_purposes'
    | 'never_purposes'
    | 'only_senders'
    | 'never_senders'
    | 'require_pattern'
    | 'expect';
  action: RuleAction;
  text: string;
  /** hold_above: amounts above it are held (from it, when `inclusive`); hold_below: amounts below it. */
  amount?: number;
  inclusive?: boolean;
  /** The intents the rule is about; for a limit, the only intents it limits (none: every payment). */
  purposes?: string[];
  /** Words (stems) the rule is about besides its purposes: "no betting money" names BETTING and its brands. */
  words?: string[];
  /** Senders by name, as their words in capitals. */
  senders?: string[];
  /** require_pattern: the reference's prefix, then a separator and digits ("INV-…"). */
  pattern?: string;
  /** expect: the prompt expects these only; another stated purpose loses confidence. */
  only?: boolean;
}

/** A wallet instruction read: its rules, and the sentences (or clauses) it could not read, which hold nothing. */
export interface Instruction {
  rules: Rule[];
  not_understood: string[];
}

/** A rule as applied: the public rule with what its explanation line says and the senders' words. */
interface Applied extends Rule {
  amounts?: string;
  names?: string[][];
}

/**
 * A wallet's `system_prompt` read into rules. Each sentence goes first to the grammar's whole-sentence
 * patterns (hold every payment, require a reference), then to the clause reader; a sentence or clause
 * that becomes no rule is listed in `not_understood`, and holds nothing.
 * @example readInstruction('Max ₦30 per payment, hold anything more').rules[0] // { kind: 'hold_above', amount: 3000, … }
 */
export function readInstruction(prompt: string): Instruction {
  let read = READ.get(prompt);
  if (read === undefined) {
    if (READ.size >= 1000) READ.clear();
    READ.set(prompt, (read = instructionOf(prompt)));
  }
  return read;
}

/** Prompts read already: a wallet's prompt is read for every payment into it, and never changes. */
const READ = new Map<string, Instruction>();

function instructionOf(prompt: string): Instruction {
  const rules: Applied[] = [];
  const rest: string[] = [];
  for (const sentence of sentencesOf(prompt)) {
    const all = holdsAll(sentence);
    const reference = all ? undefined : requiredReference(sentence);
    if (all) rules.push({ kind: 'hold_all', action: all, text: sentence });
    else if (reference)
      rules.push({
        kind: 'require_pattern',
        action: reference.action,
        text: sentence,
        pattern: `${reference.prefix}-…`,
      });
    else rest.push(sentence);
  }
  const clauses = readClauses(rest);
  const notUnderstood: string[] = [];
  for (const clause of clauses) {
    const own = rulesOf(clause).filter((rule) => !rules.some((r) => sameRule(r, rule)));
    rules.push(...own);
    // A clause that describes a limit the next one holds ("amounts above ₦100k are unusual; review them") is read.
    const described = clause.limit !== undefined && clauses.some((c) => c !== clause && c.limit === clause.limit);
    const repeated = rulesOf(clause).length > own.length;
    if (own.length === 0 && !described && !repeated && !saysNothingNew(clause.text, rules.length > 0))
      notUnderstood.push(clause.text);
  }
  return { rules, not_understood: notUnderstood };
}

const sameRule = (a: Applied, b: Applied) =>
  a.kind === b.kind &&
  a.action === b.action &&
  a.amount === b.amount &&
  a.amounts === b.amounts &&
  `${a.purposes}` === `${b.purposes}`;

/** The words of a clause that expects payments: "this wallet receives…", "for my tenants", "customers pay for…". */
const EXPECTING = new RegExp(
  String.raw`\b(?:expects?|expected|expecting|receives?|received|receiving|accepts?|accepted|for|from|pays?|paid|` +
    String.raw`paying|collects?|wallet|account|only|mostly|usually|business|shop|store|sells?|selling)\b`,
  'i',
);

/** The rules one clause of the reader says: what it expects, the purposes and senders it holds, its limits. */
function rulesOf(clause: Clause): Applied[] {
  const text = clause.text;
  const purposes = [...clause.intents];
  const about = {
    ...(purposes.length > 0 ? { purposes } : {}),
    ...(clause.words.length > 0 ? { words: clause.words } : {}),
  };
  const rules: Applied[] = [];
  const limit = clause.limit;
  const limitAction = limit?.polarity ?? clause.polarity;
  if (limit && limitAction !== 'expect') {
    const limited = { action: limitAction, text, amounts: limit.amounts, ...(purposes.length > 0 ? { purposes } : {}) };
    // "₦1m and above" is above 99,999,999 kobo: shown as the amount written, from it.
    if (limit.belowKobo !== undefined) rules.push({ kind: 'hold_below', amount: limit.belowKobo, ...limited });
    if (limit.aboveKobo !== undefined) {
      const inclusive = / and above|past what/.test(limit.amounts);
      const amount = inclusive ? limit.aboveKobo + 1 : limit.aboveKobo;
      rules.push({ kind: 'hold_above', amount, ...(inclusive ? { inclusive } : {}), ...limited });
    }
  }
  if (clause.polarity === 'expect') {
    // Prose that names no purpose and says nothing of payments ("the weather is nice") is no expectation.
    if (purposes.length > 0 || (clause.words.length > 0 && EXPECTING.test(text)))
      rules.push({ kind: 'expect', action: 'expect', text, ...about, ...(clause.only ? { only: true } : {}) });
    return rules;
  }
  if (clause.except) rules.push({ kind: 'only_purposes', action: clause.polarity, text, ...about });
  else if (limit === undefined && (purposes.length > 0 || clause.words.length > 0))
    rules.push({ kind: 'never_purposes', action: clause.polarity, text, ...about });
  if (clause.senders && limit === undefined && (clause.exceptSenders || purposes.length === 0))
    rules.push({
      kind: clause.exceptSenders ? 'only_senders' : 'never_senders',
      action: clause.polarity,
      text,
      senders: clause.senders.map((s) => s.join(' ')),
      names: clause.senders,
    });
  return rules;
}

/** The instruction as `POST /sandbox/analyse` shows it: the rules' public fields only. */
export function describeInstruction(prompt: string): Instruction {
  const { rules, not_understood } = readInstruction(prompt);
  return {
    rules: rules.map(({ amounts: _amounts, names: _names, ...rule }: Applied) => rule),
    not_understood,
  };
}

/** The flag a rule that holds raises. */
export const ruleFlag = (action: RuleAction) =>
  action === 'reject' ? 'REJECTED_BY_PROMPT' : 'REVIEW_REQUESTED_BY_PROMPT';

/** What a rule says of a payment: a change of confidence, a flag, and the explanation's line. */
export interface Said {
  delta?: number;
  flag?: string;
  line: string;
}

export interface Reading {
  intent: string;
  /** Whether the intent is a specific purpose (not a transfer, a general payment or unknown). */
  specific: boolean;
  /** The narration's word stems. */
  stems: Set<string>;
}

/**
 * What the rules about purposes say of a reading, in the prompt's order: confidence for what it
 * expects, flags for what it holds. Each entry is a change of confidence, a flag or neither, and the
 * explanation line.
 */
export function purposeRules(instruction: Instruction, { intent, specific, stems }: Reading): Said[] {
  return instruction.rules.flatMap((rule): Said[] => {
    const about = rule.purposes?.includes(intent) ?? false;
    const word = rule.words?.find((w) => stems.has(w));
    if (rule.kind === 'expect') {
      if (about) return [{ delta: 0.15, line: `system prompt expects ${intent}: +0.15` }];
      if (word) return [{ delta: 0.2, line: `system prompt mentions ${word}, which the narration has: +0.2` }];
      // A narration that states no purpose does not contradict the prompt; one that states another does.
      if (rule.only && rule.purposes && specific)
        return [
          {
            delta: -0.2,
            flag: 'UNEXPECTED_FOR_WALLET',
            line: `system prompt expects only ${rule.purposes.join(', ')}: -0.2`,
          },
        ];
      return [];
    }
    const flag = ruleFlag(rule.action);
    // "Reject anything that is not rent": another stated purpose is what it refuses; no stated purpose is not one.
    if (rule.kind === 'only_purposes')
      return !about && !word && specific
        ? [
            {
              flag,
              line: `system prompt says to ${rule.action} anything but ${rule.purposes?.join(', ') ?? ''}: ${flag}`,
            },
          ]
        : [];
    if (rule.kind === 'never_purposes' && (about || word))
      return [{ flag, line: `system prompt says to ${rule.action} ${about ? intent : word}: ${flag}` }];
    return [];
  });
}

/** The intents the lexicon states: a name or "payment" may be any purpose. */
const STATED = new Set(INTENTS.map((i) => i.intent));

export interface Payment {
  amount: number;
  intent: string;
  senderName: string;
  narration: string;
}

/**
 * What the rules that hold by the payment itself say, whatever read the narration: its amount, its
 * sender, every payment, a reference it must carry; then the sentences not understood, which hold
 * nothing. A limit that names purposes limits those: a payment above it that states no purpose may
 * be one and is held too. The amount is the payment's, never one typed in the narration.
 */
export function paymentRules(instruction: Instruction, payment: Payment): Said[] {
  const rules = instruction.rules as Applied[];
  const heard = rules.some((r) => r.names)
    ? new Set(`${words(payment.senderName)} ${words(payment.narration)}`.split(' '))
    : new Set<string>();
  const of = (kind: Rule['kind']) => rules.filter((r) => r.kind === kind);
  const held = (rule: Applied, what: string) => {
    const flag = ruleFlag(rule.action);
    return { flag, line: `system prompt says to ${rule.action} ${what}: ${flag}` };
  };
  const limits = rules.filter((rule) => {
    if (rule.kind !== 'hold_above' && rule.kind !== 'hold_below') return false;
    const outside =
      rule.kind === 'hold_below'
        ? payment.amount < rule.amount!
        : payment.amount > rule.amount! || (rule.inclusive === true && payment.amount === rule.amount);
    return outside && (!rule.purposes || rule.purposes.includes(payment.intent) || !STATED.has(payment.intent));
  });
  return [
    // One clause's range is one line: the amount is outside it on one side only.
    ...[...new Set(limits.map((rule) => held(rule, rule.amounts!)).map((l) => JSON.stringify(l)))].map(
      (l) => JSON.parse(l) as { flag: string; line: string },
    ),
    ...rules
      .filter((r) => r.names && r.names.some((name) => isFrom(name, heard)) !== (r.kind === 'only_senders'))
      .map((r) => held(r, `payments ${r.kind === 'only_senders' ? 'not ' : ''}from ${r.senders!.join(', ')}`)),
    ...of('hold_all').map((r) => held(r, 'every payment')),
    ...of('require_pattern')
      .filter((r) => !carriesReference(payment.narration, r.pattern!.replace(/-…$/, '')))
      .map((r) => held(r, `payments without a reference like ${r.pattern}`)),
    ...instruction.not_understood.map((text) => ({ line: `instruction not understood: ${text}` })),
  ];
}
