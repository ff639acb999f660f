import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/registry.js';
import { NOT_IN_SCENARIOS } from '../../src/scenario/compile.js';
import { COMMAND_DATA, fieldPaths, grouped, withFieldsTable } from '../../src/scenario/fields.js';
import { readDoc } from '../helpers/docs.js';
import { z } from 'zod';

/** docs/scenarios.md lists the fields of each command step's `data`, from the API's response schemas. */

/** Commands that print this machine's configuration (profiles, whoami), not an answer of the API. */
const LOCAL = ['profiles add', 'profiles list', 'profiles show', 'profiles use', 'profiles remove', 'whoami'];

describe('the fields a command step can match', () => {
  it('docs/scenarios.md has the table the schemas give now', () => {
    const doc = readDoc('docs/scenarios.md');
    expect(
      doc,
      'docs/scenarios.md: the fields table is not what the schemas give; run `npm run build && node scripts/scenario-fields.js`',
    ).toBe(withFieldsTable(doc));
  });

  it('has a row for every command a scenario can run that prints an answer of the API', () => {
    const runnable = COMMANDS.filter((c) => c.load && !(c.path in NOT_IN_SCENARIOS) && !LOCAL.includes(c.path)).map(
      (c) => c.path,
    );
    expect(Object.keys(COMMAND_DATA).sort()).toEqual(runnable.sort());
  });

  it('writes nested objects dotted, arrays as [], maps as <key>, every branch of a union once', () => {
    const schema = z.object({
      items: z.array(z.object({ id: z.string(), tags: z.array(z.string()) })),
      outcome: z.enum(['A', 'B']),
      transaction: z.object({ balance_after: z.int() }).nullable().optional(),
      removed: z.record(z.string(), z.int()),
      match: z.union([
        z.object({ kind: z.literal('a'), id: z.string() }),
        z.object({ kind: z.literal('b'), name: z.string() }),
      ]),
    });
    const paths = fieldPaths(schema);
    expect(paths).toEqual([
      'items[].id',
      'items[].tags[]',
      'outcome',
      'transaction.balance_after',
      'removed.<key>',
      'match.kind',
      'match.id',
      'match.name',
    ]);
    expect(grouped(paths)).toEqual([
      'items[].{id, tags[]}',
      'outcome',
      'transaction.balance_after',
      'removed.<key>',
      'match.{kind, id, name}',
    ]);
  });
});
