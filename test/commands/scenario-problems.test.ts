import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scenarioRunIn } from '../helpers/io.js';

/**
 * A malformed scenario file is reported whole: the problems of its shape (unknown keys, bad values)
 * and those found only once the shape is right (commands, ${…} with no value, regular expressions,
 * result paths, names), in one run, in file order, every other step of a broken scenario checked too.
 */
const cwd = mkdtempSync(join(tmpdir(), 'ledger-problems-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const FILE = `- name: shape and commands
  steps:
    - run: wallets list
      expct: { exit: 0 }
    - advance: soon
    - frobnicate --now
    - run: wallets get \${ADA}
    - request: GET /v1/banks
      expect: { data.items: { matches: "[" } }
- name: shape and commands
  seed: -1
  steps:
    - run: wallets create --customer-reference ada --first-name Ada --last-name Obi --email ada@example.com
      save: { ADA: data.id, BAD: nope.id }
    - run: wallets get $ADA
`;

describe('scenario run: a malformed file', () => {
  it('seen: five problems showed as two, then three more once those were fixed; every problem is reported in one run', async () => {
    writeFileSync(join(cwd, 'five.yaml'), FILE);
    const run = await scenarioRunIn(cwd, ['five.yaml']);
    expect([run.exitCode, run.stdout]).toEqual([2, '']);
    expect(run.stderr.split('\n')).toEqual([
      'Error [INVALID_SCENARIO]: five.yaml:4:7: unknown key "expct" in this step: ' +
        'besides one of run, request, advance, snapshot, expect_webhook, a step may have name, save, expect and expect_error ' +
        '(a request also body and headers, expect_webhook also match)',
      'Error [INVALID_SCENARIO]: five.yaml:5:16: steps[1].advance: must be a duration like 2s, 5m, 1h or 1d',
      'Error [INVALID_SCENARIO]: five.yaml:6:7: unknown command "frobnicate": run ledger --help for the commands',
      'Error [INVALID_SCENARIO]: five.yaml:7:12: ${ADA} has no value here: define it under vars, or save it in an earlier step',
      'Error [INVALID_SCENARIO]: five.yaml:9:17: data.items: matches is not a regular expression ' +
        '(Invalid regular expression: /[/: Unterminated character class)',
      'Error [INVALID_SCENARIO]: five.yaml:10:3: another scenario in this file is also named "shape and commands": each needs its own name',
      'Error [INVALID_SCENARIO]: five.yaml:11:9: seed: Too small: expected number to be >=0',
      'Error [INVALID_SCENARIO]: five.yaml:14:29: save BAD: "nope.id": a run step\'s result has exit, data, error, stdout and stderr',
      'Error [INVALID_SCENARIO]: five.yaml:15:12: $ADA is not replaced: write ${ADA}',
      '',
    ]);
  });
});
