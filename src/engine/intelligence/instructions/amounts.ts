/**
 * Amounts as wallet instructions write them: "₦30", "N50k", "NGN 100,000", "#2m", "1.5m", "₦1,500.50",
 * "500 naira", "50 kobo", and in words ("fifty thousand naira", "two million", "one hundred and fifty
 * thousand", "half a million"). Money is integer kobo: ₦1 is 100 kobo.
 */

const UNITS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const UNIT_WORDS = Object.keys(UNITS).join('|');
const NUMBER_WORD = `(?:${UNIT_WORDS}|hundred|thousand|million|billion|half)`;
/** A run of number words ("one hundred and fifty thousand"), "and" and hyphens between them ("twenty-five"). */
const WORD_RUN = new RegExp(String.raw`\b${NUMBER_WORD}(?:(?:\s+and\s+|\s+|-)${NUMBER_WORD})*\b`, 'gi');

/** The value of a run of number words, or undefined when it is not one number ("a" alone, "half"). */
export function numberOfWords(run: string): number | undefined {
  const parts = run.toLowerCase().split(/\s+and\s+|\s+|-/);
  // "Half a million" is 500,000: half of the scale that follows.
  if (parts[0] === 'half' && (parts[1] === 'a' || parts[1] === 'an') && parts.length === 3 && SCALES[parts[2]!])
    return SCALES[parts[2]!]! / 2;
  let total = 0;
  let group = 0;
  let seen = false;
  for (const part of parts) {
    if (UNITS[part] !== undefined) {
      group += UNITS[part]!;
      seen = true;
    } else if (part === 'hundred') group = (group || 1) * 100;
    else if (SCALES[part] !== undefined) {
      total += (group || 1) * SCALES[part]!;
      group = 0;
    } else return undefined;
  }
  return seen || total > 0 ? total + group : undefined;
}

/**
 * A text with its amounts in words written in digits: "fifty thousand naira" is "50000 naira", "two
 * million" "2000000". Only a run that ends in a scale or stands before "naira" is money: "two
 * children" and "one hundred students" stay as written, so a count never becomes an amount.
 */
export function amountsInDigits(text: string): string {
  if (!/thousand|million|billion|naira/i.test(text)) return text;
  return text.replace(WORD_RUN, (run, offset: number, whole: string) => {
    const money = /(?:thousand|million|billion)$/i.test(run) || /^\s*naira\b/i.test(whole.slice(offset + run.length));
    const value = money ? numberOfWords(run) : undefined;
    return value === undefined ? run : String(value);
  });
}

/** An amount as written: a currency sign, a number (commas, kobo), a scale, a unit. Groups: number, scale, unit. */
export const AMOUNT = String.raw`(?:₦|#|ngn|\bn)?\s*([\d,]+(?:\.\d+)?)\s*(?:(k|m|thousand|million|billion)(?![a-z]))?\s*(naira|kobo)?`;

const SCALE_OF: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, billion: 1e9 };

/**
 * An amount's kobo from its number, scale and unit: "30" naira is 3000 kobo, "2.5" "m" is 250000000,
 * "50" "kobo" is 50.
 * @example koboFrom('1,500.50', undefined, undefined) // 150050
 */
export function koboFrom(number: string, scale: string | undefined, unit: string | undefined): number {
  const value = Number(number.replace(/,/g, '')) * (SCALE_OF[scale?.toLowerCase() ?? ''] ?? 1);
  return Math.round(unit?.toLowerCase() === 'kobo' ? value : value * 100);
}

/**
 * Whether a matched AMOUNT is money, not a count ("children under 5"): a currency sign, a scale,
 * "naira" or "kobo", thousands grouped, or four digits or more.
 */
export function isMoney(found: RegExpExecArray): boolean {
  return (
    /(?:₦|#|\bngn|\bn)\s*\d/i.test(found[0]) ||
    found[2] !== undefined ||
    found[3] !== undefined ||
    /,/.test(found[1]!) ||
    found[1]!.replace(/\..*/, '').length >= 4
  );
}

const FIRST_AMOUNT = new RegExp(AMOUNT, 'i');

/**
 * The kobo of the first amount in a text, in any of its spellings, or undefined when it has none
 * that is money.
 * @example amountIn('fifty thousand naira') // 5000000
 */
export function amountIn(text: string): number | undefined {
  const found = FIRST_AMOUNT.exec(amountsInDigits(text));
  return found && isMoney(found) ? koboFrom(found[1]!, found[2], found[3]) : undefined;
}
