import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpolateText, interpolateValue, UnknownVariableError } from '../../src/scenario/interpolate.js';
import { matchValue } from '../../src/scenario/matchers.js';
import { valueAt } from '../../src/scenario/paths.js';
import { scenarioJsonSchema } from '../../src/scenario/schema.js';
import { splitWords, WordsError } from '../../src/scenario/words.js';

/** The pieces of a scenario file that need no sandbox: matchers, ${…}, command-line words, result paths, the shipped schema. */

const ROOT = resolve(import.meta.dirname, '../..');
const messages = (expected: unknown, actual: unknown) => matchValue(expected, actual).map((m) => m.message);

describe('matchers', () => {
  const cases: [string, unknown, unknown, string[]][] = [
    ['a plain value, equal', 500000, 500000, []],
    ['a plain value, not equal', 500000, 499999, ['expected 500000, got 499999']],
    ['eq on objects, in any key order', { eq: { a: 1, b: [1, 2] } }, { b: [1, 2], a: 1 }, []],
    ['eq on objects, one field differs', { eq: { a: 1 } }, { a: 2 }, ['expected {"a":1}, got {"a":2}']],
    ['a missing field', 1, undefined, ['expected 1, got (missing)']],
    ['gt/gte/lt/lte holding', { gt: 1, gte: 2, lt: 3, lte: 2 }, 2, []],
    ['gt and lte failing together', { gt: 2, lte: 1 }, 2, ['expected more than 2, got 2', 'expected at most 1, got 2']],
    ['a bound on text compares ISO times', { gte: '2026-01-01', lt: '2026-01-02' }, '2026-01-01T10:00:00.000Z', []],
    ['a number bound on text', { gt: 1 }, '2', ['expected a number more than 1, got "2"']],
    ['matches', { matches: '^\\d{10}$' }, '0123456789', []],
    ['matches failing', { matches: '^ADA' }, 'SANDBOX / ADA', ['expected text matching /^ADA/, got "SANDBOX / ADA"']],
    ['matches on a number', { matches: '1' }, 1, ['expected text matching /1/, got 1']],
    ['length of an array', { length: 2 }, [1, 2], []],
    ['length of text, bounded', { length: { gte: 3, lt: 5 } }, 'abcd', []],
    ['length failing', { length: { gte: 3 } }, [1], ['expected length at least 3, got length 1']],
    ['length of a number', { length: 1 }, 7, ['expected an array or text of length 1, got 7']],
    ['exists', { exists: true }, 0, []],
    ['exists on null', { exists: true }, null, ['expected a value, got null']],
    ['exists false on a missing field', { exists: false }, undefined, []],
    ['exists false on a value', { exists: false }, 'x', ['expected no value, got "x"']],
    ['one_of', { one_of: ['A', 'B'] }, 'B', []],
    ['one_of failing', { one_of: ['A', 'B'] }, 'C', ['expected one of ["A","B"], got "C"']],
    [
      'contains: an element with at least these fields',
      { contains: { type: 'DEBIT' } },
      [{ type: 'CREDIT' }, { type: 'DEBIT', amount: 1 }],
      [],
    ],
    [
      'contains failing',
      { contains: { type: 'DEBIT' } },
      [{ type: 'CREDIT' }],
      ['expected an array containing {"type":"DEBIT"}, got [{"type":"CREDIT"}]'],
    ],
    ['contains in text', { contains: 'May' }, 'Salary for May', []],
    ['contains on a number', { contains: 'x' }, 5, ['expected text or an array containing "x", got 5']],
  ];
  it.each(cases)('%s', (_, expected, actual, found) => {
    expect(messages(expected, actual)).toEqual(found);
  });

  it('gives a diff for objects, and cuts long values in the one-line message', () => {
    const actual = { id: 'x'.repeat(200), balance: 1 };
    const [mismatch] = matchValue({ eq: { balance: 2 } }, actual);
    expect(mismatch!.message.length).toBeLessThan(300);
    expect(mismatch!.message).toMatch(/^expected \{"balance":2\}, got \{"id":"x+…$/);
    expect(mismatch!.diff!.split('\n')).toEqual([
      '  {',
      '-   "balance": 2',
      '+   "balance": 1',
      `+   "id": "${'x'.repeat(200)}"`,
      '  }',
    ]);
  });
});

describe('${…} interpolation', () => {
  const vars = { ADA: 'w-1', AMOUNT: 500, OBJ: { a: 1 } };
  it('fills text, encoding values for a path', () => {
    expect(interpolateText('/v1/wallets/${ADA}/transfer', vars)).toBe('/v1/wallets/w-1/transfer');
    expect(interpolateText('/v1/x/${ADA}', { ADA: 'a/b c' }, encodeURIComponent)).toBe('/v1/x/a%2Fb%20c');
    expect(interpolateText('cost ${AMOUNT}, $${ADA}', vars)).toBe('cost 500, ${ADA}');
  });
  it('keeps the type of a whole value in bodies, and writes objects as JSON inside text', () => {
    expect(
      interpolateValue({ amount: '${AMOUNT}', note: 'for ${ADA}', nested: ['${OBJ}'], '${ADA}': 1 }, vars),
    ).toEqual({ amount: 500, note: 'for w-1', nested: [{ a: 1 }], 'w-1': 1 });
    expect(interpolateText('${OBJ}!', vars)).toBe('{"a":1}!');
  });
  it('refuses a variable with no value', () => {
    expect(() => interpolateText('${NOPE}', vars)).toThrow(UnknownVariableError);
  });
});

describe('command-line words', () => {
  it('splits as a shell would, quotes and backslashes included', () => {
    expect(splitWords(`credit \${ADA} 500000 --narration "Salary for May" --sender-name 'O\\'Brien`)).toEqual([
      'credit',
      '${ADA}',
      '500000',
      '--narration',
      'Salary for May',
      '--sender-name',
      'O\\Brien',
    ]);
    expect(splitWords('a "b \\"c\\" d" e\\ f')).toEqual(['a', 'b "c" d', 'e f']);
  });
  it('refuses shell syntax and unclosed quotes, with where', () => {
    expect(() => splitWords('wallets list | head')).toThrow(WordsError);
    expect(() => splitWords('wallets get $(cat id)')).toThrow(/\$\( … \) is shell/);
    expect(() => splitWords('credit x 1 --narration "open')).toThrow(/never closed/);
    try {
      splitWords('a ; b');
    } catch (error) {
      expect((error as WordsError).index).toBe(2);
    }
  });
});

describe('result paths', () => {
  it('reads fields and array items, dotted or bracketed', () => {
    const result = { data: { items: [{ id: 'a' }, { id: 'b' }] }, headers: { 'webhook-id': 'msg_1' } };
    expect(valueAt(result, 'data.items[1].id')).toBe('b');
    expect(valueAt(result, 'data.items.0.id')).toBe('a');
    expect(valueAt(result, 'headers.webhook-id')).toBe('msg_1');
    expect(valueAt(result, 'data.items[5].id')).toBeUndefined();
    expect(valueAt(result, 'data.constructor')).toBeUndefined();
  });
});

describe('the JSON Schema shipped for editors', () => {
  it('is what `npm run schema` writes from the format', () => {
    const shipped = JSON.parse(readFileSync(resolve(ROOT, 'schema/scenario.schema.json'), 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(scenarioJsonSchema())));
    expect(shipped.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });
  it('is in the package, with the examples', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8'));
    expect(pkg.files).toEqual(expect.arrayContaining(['schema', 'examples']));
  });
});
