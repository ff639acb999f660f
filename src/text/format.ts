/**
 * Money, counts and colour for people. No dependencies: colour is five SGR codes, and naira are
 * grouped by hand (an Intl.NumberFormat for en-NG cost 35–43 ms to create, at every start).
 */

/**
 * Kobo as naira for people: 500000 → "₦5,000.00". Exact for every safe integer, and for a total past
 * 2^53 that the API gives as a string of digits.
 */
export function naira(kobo: number | string): string {
  if (typeof kobo === 'string') {
    const digits = kobo.replace(/^-/, '').padStart(3, '0');
    return `${kobo.startsWith('-') ? '-' : ''}₦${digits
      .slice(0, -2)
      .replace(/^0+(?=\d)/, '')
      .replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${digits.slice(-2)}`;
  }
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const whole = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}₦${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** Both units, kobo first: "500000 (₦5,000.00)". */
export function money(kobo: number): string {
  return `${kobo} (${naira(kobo)})`;
}

/**
 * Amounts inside the API's own sentences in both units. `kobo` marks them in suspense resolutions
 * ("credited 2500 kobo to wallet …"); in an agent run's reason, effect and error every bare number is
 * an amount ("balance crossed above 1000000 (0 → 1500000)") but a count of hops, and ids are left alone.
 */
export function moneyInText(text: string, bareNumbers = false): string {
  const pattern = bareNumbers ? /(?<![\w.-])(\d+)(?: kobo)?(?![\w.-]|\s*hops?\b)/g : /(?<![\w.-])(\d+) kobo\b/g;
  return text.replace(pattern, (_, digits: string) => money(Number(digits)));
}

/** "1 developer", "2 developers", "1 entry", "3 entries". `noun` may be given in either number. */
export function plural(count: number, noun: string): string {
  const singular = noun.endsWith('ies')
    ? `${noun.slice(0, -3)}y`
    : noun.endsWith('s') && !noun.endsWith('ss')
      ? noun.slice(0, -1)
      : noun;
  const many =
    singular.endsWith('y') && !/[aeiou]y$/.test(singular)
      ? `${singular.slice(0, -1)}ies`
      : singular.endsWith('s')
        ? `${singular}es`
        : `${singular}s`;
  return `${count} ${count === 1 ? singular : many}`;
}

/** "Error", "Error and Hop", "Transaction, Error and Hop". */
export function listed(words: string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const COLOUR: Paint = { bold: sgr(1, 22), dim: sgr(2, 22), green: sgr(32, 39), red: sgr(31, 39), yellow: sgr(33, 39) };
const PLAIN: Paint = { bold: (t) => t, dim: (t) => t, green: (t) => t, red: (t) => t, yellow: (t) => t };

/** Colour only on a terminal, and never with NO_COLOR set or TERM=dumb. */
export function colourFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Paint {
  return Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb' ? COLOUR : PLAIN;
}

const GOOD = new Set(['ACTIVE', 'SETTLED', 'SUCCESS', 'DELIVERED', 'RESOLVED', 'CREDITED', 'DONE', 'ok', 'running']);
const WAITING = new Set(['PENDING', 'SUSPENDED', 'SKIPPED']);
const BAD = new Set(['CLOSED', 'FAILED', 'DEAD', 'FLAGGED', 'stopped']);

export function status(value: string, c: Paint): string {
  if (GOOD.has(value)) return c.green(value);
  if (WAITING.has(value)) return c.yellow(value);
  if (BAD.has(value)) return c.red(value);
  return value;
}
