/**
 * The grammar's own sentences: the splitter every instruction goes through, and the patterns for
 * what the clause reader (`prompt.ts`) has no reading of: holding every payment, and a reference a
 * narration must carry. Each pattern is built from parts (verbs of holding, quantifiers, the nouns
 * of a payment, the tails that say "for review") and must match the whole sentence, so a sentence
 * that says more than the pattern knows ("review anything suspicious") is never read as one.
 */

/**
 * A prompt's sentences as written: split at ".", "!", "?" and new lines, but not at a decimal point
 * ("₦30.50"), an abbreviation ("e.g.", "i.e.", "etc.") or an ellipsis standing for a reference's
 * digits ("INV-…", "ORD-...").
 * @example sentencesOf('Max ₦30.50 per payment. Hold the rest!') // ['Max ₦30.50 per payment', 'Hold the rest']
 */
export function sentencesOf(prompt: string): string[] {
  const kept = prompt
    .replace(/\b(e\.g|i\.e|etc|viz|approx|no)\.(?=\s|$)/gi, (_, word: string) => word.replace(/\./g, ''))
    .replace(/\.{2,}|…/g, '\u2026');
  return kept
    .split(/(?<!\d)\.|\.(?!\d)|[!?\n]+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

/** What a sentence is about once its politeness and closing punctuation are gone, lower case. */
export function bare(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/^(?:(?:please|pls|kindly|abeg)[,\s]+)+/, '')
    .replace(/[,\s]+(?:please|pls|thanks|thank you)\s*$/, '')
    .replace(/[\s,:;]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const src = (r: RegExp) => r.source;
const alt = (...parts: string[]) => `(?:${parts.join('|')})`;

/** Verbs that hold a payment for a person to look at, in their imperative and participle forms. */
const HOLD = alt(
  'hold',
  'review',
  'flag',
  'check',
  'verify',
  'queue',
  'quarantine',
  'park',
  'suspend',
  'vet',
  'screen',
);
const HELD = alt('held', 'reviewed', 'flagged', 'checked', 'verified', 'queued', 'quarantined', 'parked', 'vetted');
const REFUSE = alt('reject', 'refuse', 'block', 'decline', 'bounce', 'return');
const REFUSED = alt('rejected', 'refused', 'blocked', 'declined', 'bounced', 'returned');
/** A payment's nouns, singular or plural. */
const NOUN = src(/(?:payment|transfer|credit|deposit|transaction|inflow|lodgement|alert|money)s?/);
/** Every payment: "every payment", "all incoming transfers", "everything", "anything", "all". */
const ALL = alt(
  String.raw`(?:every|each|all(?: the)?|any)\s+(?:single\s+)?(?:(?:incoming|inbound|new|received)\s+)?${NOUN}`,
  'everything',
  'anything',
  String.raw`all(?: of them)?`,
);
/** What the holding is for: "for manual review", "manually", "until I approve", "before crediting". */
const TAIL = alt(
  src(/(?:for|to|until)\s+(?:a\s+|my\s+)?(?:manual\s+)?(?:review|approval|checks?|checking|verification|confirmation)/),
  src(/manually|first|always|by hand/),
  src(/(?:until|till) i (?:approve|confirm|check|review|see)(?: (?:it|them))?/),
  src(/before (?:crediting|credit|it is credited|they are credited|settling)/),
  src(/without (?:exception|fail)/),
  src(/on hold/),
);
const TAILS = String.raw`(?:[\s,]+${TAIL})*`;
const MODAL = src(/(?:should|must|will|shall|has to|have to|is to|are to|needs? to)\s+(?:be|get)|(?:is|are|gets?)/);
/** Crediting on its own: "don't credit anything automatically", "nothing is credited without my approval". */
const AUTOMATIC = src(
  /(?:automatically|auto|on (?:its|their) own|without (?:my |a |manual )?(?:approval|review|check|checking|ok))/,
);

/** Whole sentences that hold every payment, each with what it does with them. */
const HOLD_ALL: { pattern: RegExp; action: 'review' | 'reject' }[] = [
  // "Hold every payment for manual review", "review everything", "put all payments on hold".
  { pattern: new RegExp(String.raw`^${HOLD}\s+${ALL}${TAILS}$`), action: 'review' },
  { pattern: new RegExp(String.raw`^put\s+${ALL}\s+on hold${TAILS}$`), action: 'review' },
  // "Every payment must be reviewed manually", "all transfers should be held for approval".
  { pattern: new RegExp(String.raw`^${ALL}\s+${MODAL}\s+(?:manually\s+)?${HELD}${TAILS}$`), action: 'review' },
  // "Everything goes to manual review", "all payments need approval", "manual review for everything".
  {
    pattern: new RegExp(
      String.raw`^${ALL}\s+(?:goes|go|should go|must go)\s+(?:to|for)\s+(?:manual\s+)?(?:review|approval)$`,
    ),
    action: 'review',
  },
  {
    pattern: new RegExp(String.raw`^${ALL}\s+(?:needs?|requires?)\s+(?:my\s+|manual\s+)?(?:approval|review)$`),
    action: 'review',
  },
  { pattern: new RegExp(String.raw`^manual (?:review|approval) (?:for|of|on) ${ALL}$`), action: 'review' },
  // "Don't credit anything automatically", "never auto-credit any payment", "no automatic credits".
  {
    pattern: new RegExp(
      String.raw`^(?:do not|don't|dont|never|no)\s+(?:credit|accept|settle)\s+${ALL}\s+${AUTOMATIC}$`,
    ),
    action: 'review',
  },
  { pattern: new RegExp(String.raw`^(?:do not|don't|dont|never)\s+auto[- ]?credit\s+${ALL}$`), action: 'review' },
  { pattern: /^no (?:automatic|auto) (?:credits?|crediting|payments?)$/, action: 'review' },
  {
    pattern: new RegExp(
      String.raw`^(?:nothing|no payment|no transfer)\s+${MODAL}\s+(?:credited|accepted|settled)\s+${AUTOMATIC}$`,
    ),
    action: 'review',
  },
  // "Reject everything", "all payments should be refused".
  { pattern: new RegExp(String.raw`^${REFUSE}\s+${ALL}$`), action: 'reject' },
  { pattern: new RegExp(String.raw`^${ALL}\s+${MODAL}\s+${REFUSED}$`), action: 'reject' },
];

/** Whether a sentence holds every payment, and how: review or reject. */
export function holdsAll(sentence: string): 'review' | 'reject' | undefined {
  const said = bare(sentence);
  return HOLD_ALL.find(({ pattern }) => pattern.test(said))?.action;
}

/**
 * A reference as an instruction shows it: capitals, then a separator and digits, an ellipsis or
 * placeholder letters ("INV-…", "ORD-1234", "REF/0000", "PO-XXXX"). Group 1 is its prefix.
 */
const EXAMPLE = /(?<![A-Za-z0-9])([A-Z]{2,6})[-/_#]((?:\d[\w-]*)|…|X{2,}|x{2,}|N{2,}|0{2,}|\*+)?(?![A-Za-z])/;
/** The words that make a reference a requirement: the narration must carry it, or a payment without it is held. */
const REQUIRE =
  /\b(?:must|should|need(?:s)? to|has to|have to|required?|requires|only|without|missing|lacks?|lacking|no)\b/i;
const REJECTING =
  /\b(?:reject|refuse|block|decline|bounce|return|(?:accept|credit)\s+only|only\s+(?:accept|credit))\b/i;

/** A reference a narration must carry, when a sentence requires one: its prefix, and whether a payment without it is refused. */
export function requiredReference(sentence: string): { prefix: string; action: 'review' | 'reject' } | undefined {
  const example = EXAMPLE.exec(sentence);
  if (!example || !REQUIRE.test(sentence)) return undefined;
  return { prefix: example[1]!, action: REJECTING.test(sentence) ? 'reject' : 'review' };
}

/**
 * Whether a narration carries a reference with this prefix: the prefix, an optional separator, and
 * letters or digits with a digit among them ("INV-2026-001", "inv 4471", "ORD1234").
 */
export function carriesReference(narration: string, prefix: string): boolean {
  return new RegExp(String.raw`(?<![A-Za-z])${prefix}\s*[-/_#:.]?\s*[A-Za-z0-9]*\d`, 'i').test(narration);
}

/**
 * A clause that lets the rest through, which holds nothing and needs no rule: "everything else is
 * fine", "accept everything", "the rest can come in".
 */
const LET_THROUGH = new RegExp(
  String.raw`^(?:and\s+)?(?:(?:accept|credit|allow|take)\s+(?:${ALL}|the rest|others)(?:\s+else)?|` +
    String.raw`(?:${ALL}|the rest|others|other payments)(?:\s+else)?\s+(?:is|are|can|should|will)\s+` +
    String.raw`(?:be\s+)?(?:fine|ok|okay|welcome|accepted|allowed|credited|go through|come in|pass))$`,
);

/** "Flag them", "hold am": a clause that says again what the one before it holds. */
const AGAIN = new RegExp(
  String.raw`^(?:and\s+|then\s+)?(?:${HOLD}|${REFUSE})\s+(?:them|it|am|those|these|such)(?:${TAILS})$`,
);

/** Whether a clause that became no rule still said something the grammar knows: letting the rest through, or holding again. */
export function saysNothingNew(clause: string, afterRules: boolean): boolean {
  const said = bare(clause);
  return LET_THROUGH.test(said) || (afterRules && AGAIN.test(said));
}
