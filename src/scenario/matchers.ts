import { brief, diffValues, show } from './diff.js';

/**
 * What an expectation says of one field of a step's result. A plain value must be equal; an object
 * is a set of matchers (eq, gt, gte, lt, lte, matches, length, exists, one_of, contains), each of
 * which must hold. Equality is JSON's: objects compare field by field whatever their order.
 */

export interface Mismatch {
  /** One line for people: `expected 350000, got 349000`. */
  message: string;
  expected: unknown;
  actual: unknown;
  /** For objects and arrays: the lines that differ (see diff.ts). */
  diff?: string;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((item, i) => deepEqual(item, (b as unknown[])[i]));
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every(
      (k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

/** `actual` has at least `expected`'s fields, each holding at least as much; anything else must be equal. */
export function includes(actual: unknown, expected: unknown): boolean {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(
      ([k, v]) => Object.hasOwn(actual, k) && includes((actual as Record<string, unknown>)[k], v),
    );
  }
  return deepEqual(actual, expected);
}

const isMatcherObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

const ORDER = {
  gt: { holds: (c: number) => c > 0, words: 'more than' },
  gte: { holds: (c: number) => c >= 0, words: 'at least' },
  lt: { holds: (c: number) => c < 0, words: 'less than' },
  lte: { holds: (c: number) => c <= 0, words: 'at most' },
} as const;

function compare(name: keyof typeof ORDER, bound: unknown, actual: unknown): string | undefined {
  const { holds, words } = ORDER[name];
  const comparable =
    (typeof bound === 'number' && typeof actual === 'number') ||
    (typeof bound === 'string' && typeof actual === 'string');
  if (!comparable)
    return `expected ${typeof bound === 'number' ? 'a number' : 'text'} ${words} ${show(bound)}, got ${brief(actual)}`;
  const order =
    typeof bound === 'number'
      ? (actual as number) - bound
      : (actual as string) < bound
        ? -1
        : (actual as string) > bound
          ? 1
          : 0;
  return holds(order) ? undefined : `expected ${words} ${show(bound)}, got ${brief(actual)}`;
}

function lengthOf(actual: unknown): number | undefined {
  return Array.isArray(actual) || typeof actual === 'string' ? actual.length : undefined;
}

/** One matcher against the actual value: the message when it does not hold. */
function failure(name: string, expected: unknown, actual: unknown): string | undefined {
  switch (name) {
    case 'eq':
      return deepEqual(actual, expected) ? undefined : `expected ${brief(expected)}, got ${brief(actual)}`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compare(name, expected, actual);
    case 'matches':
      if (typeof actual !== 'string') return `expected text matching /${String(expected)}/, got ${brief(actual)}`;
      return new RegExp(String(expected)).test(actual)
        ? undefined
        : `expected text matching /${String(expected)}/, got ${brief(actual)}`;
    case 'length': {
      const length = lengthOf(actual);
      if (length === undefined) return `expected an array or text of length ${show(expected)}, got ${brief(actual)}`;
      const bounds = isMatcherObject(expected) ? Object.entries(expected) : [['eq', expected] as const];
      const broken = bounds.find(([n, v]) => failure(n, v, length));
      if (!broken) return undefined;
      const words = broken[0] === 'eq' ? '' : `${ORDER[broken[0] as keyof typeof ORDER].words} `;
      return `expected length ${words}${show(broken[1])}, got length ${length}`;
    }
    case 'exists': {
      const present = actual !== undefined && actual !== null;
      if (present === expected) return undefined;
      return expected ? `expected a value, got ${brief(actual)}` : `expected no value, got ${brief(actual)}`;
    }
    case 'one_of':
      return (expected as unknown[]).some((option) => deepEqual(actual, option))
        ? undefined
        : `expected one of ${brief(expected)}, got ${brief(actual)}`;
    case 'contains':
      if (Array.isArray(actual))
        return actual.some((item) => includes(item, expected))
          ? undefined
          : `expected an array containing ${brief(expected)}, got ${brief(actual)}`;
      if (typeof actual === 'string' && typeof expected === 'string')
        return actual.includes(expected)
          ? undefined
          : `expected text containing ${brief(expected)}, got ${brief(actual)}`;
      return `expected ${typeof expected === 'string' ? 'text or an array' : 'an array'} containing ${brief(expected)}, got ${brief(actual)}`;
    default:
      return `unknown matcher ${name}`;
  }
}

/**
 * Every way `actual` falls short of `expected` (empty when it matches).
 * @example matchValue({ gt: 0, lte: 100 }, 150) // [{ message: 'expected at most 100, got 150', … }]
 */
export function matchValue(expected: unknown, actual: unknown): Mismatch[] {
  const checks = isMatcherObject(expected) ? Object.entries(expected) : [['eq', expected] as const];
  const found: Mismatch[] = [];
  for (const [name, value] of checks) {
    const message = failure(name, value, actual);
    if (!message) continue;
    const diff = name === 'eq' ? diffValues(value, actual) : undefined;
    found.push({ message, expected: value, actual, ...(diff ? { diff } : {}) });
  }
  return found;
}
