import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scenarioRunIn } from '../helpers/io.js';

/**
 * `scenario run --output PATH` removes the report already at PATH when the run starts. A PATH the run
 * reads (its own scenario file, typed twice) or a directory is refused before anything is removed.
 */
const EXAMPLE = resolve(import.meta.dirname, '../../examples/scenarios/quickstart.yaml');
const cwd = mkdtempSync(join(tmpdir(), 'ledger-output-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const scenarioRun = (args: string[]) => scenarioRunIn(cwd, args);

describe('scenario run --output naming a file the run reads, or a directory', () => {
  it('`scenario run flows.yaml --output flows.yaml` is refused and the file stays', async () => {
    copyFileSync(EXAMPLE, join(cwd, 'flows.yaml'));
    const run = await scenarioRun(['flows.yaml', '--output', 'flows.yaml']);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: --output flows.yaml: is a scenario file this run reads; the report would replace it. Name another file (report.xml)\n',
    ]);
    expect(readFileSync(join(cwd, 'flows.yaml'), 'utf8')).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it('a scenario file below a directory the run was given is refused too', async () => {
    mkdirSync(join(cwd, 'suite'), { recursive: true });
    copyFileSync(EXAMPLE, join(cwd, 'suite/quickstart.yaml'));
    const run = await scenarioRun(['suite', '--output', './suite/quickstart.yaml']);
    expect([run.exitCode, run.stderr]).toEqual([
      2,
      'Error [USAGE]: --output ./suite/quickstart.yaml: is a scenario file this run reads; the report would replace it. Name another file (report.xml)\n',
    ]);
    expect(readFileSync(join(cwd, 'suite/quickstart.yaml'), 'utf8')).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it('a directory is a usage error that names a file to give', async () => {
    mkdirSync(join(cwd, 'reports'), { recursive: true });
    const run = await scenarioRun([EXAMPLE, '--output', 'reports']);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      2,
      '',
      "Error [USAGE]: --output reports: is a directory; name the report's file (reports/report.xml)\n",
    ]);
  });

  it('a file where a folder of the path should be, or an empty --output, is a usage error that says which', async () => {
    copyFileSync(EXAMPLE, join(cwd, 'flows.yaml'));
    const under = await scenarioRun(['flows.yaml', '--output', 'flows.yaml/out/report.xml']);
    expect([under.exitCode, under.stdout, under.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: --output flows.yaml/out/report.xml: flows.yaml is a file, not a directory\n',
    ]);
    const empty = await scenarioRun(['flows.yaml', '--output', '']);
    expect([empty.exitCode, empty.stderr]).toEqual([
      2,
      "Error [USAGE]: --output is empty: name the report's file (report.xml)\n",
    ]);
    expect(readFileSync(join(cwd, 'flows.yaml'), 'utf8')).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it('the --snapshot file the run starts from is refused too (it was removed, then reported missing)', async () => {
    copyFileSync(EXAMPLE, join(cwd, 'flows.yaml'));
    writeFileSync(join(cwd, 'base.db'), 'a snapshot');
    const run = await scenarioRun(['flows.yaml', '--snapshot', './base.db', '--output', 'base.db']);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: --output base.db: is the --snapshot file every scenario starts from; the report would replace it. Name another file (report.xml)\n',
    ]);
    expect(readFileSync(join(cwd, 'base.db'), 'utf8')).toBe('a snapshot');
  });
});
