import { execa } from 'execa';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';
import { sectionOf } from '../helpers/docs.js';

/**
 * The "Reproducible tests" examples of docs/walkthroughs.md, pasted as they stand into a project that has this
 * package installed (node_modules links to this checkout): the CI script passes twice with the same
 * output and fails on a changed golden file; the vitest and node:test examples pass.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const section = sectionOf('docs/walkthroughs.md', '## Reproducible tests');
const block = (language: string) => {
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!match) throw new Error(`no ${language} block in the Reproducible tests section of docs/walkthroughs.md`);
  return match[1]!;
};
const { name } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string };

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'ledger-readme-'));
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', name));
  symlinkSync(join(ROOT, 'bin', 'ledger.js'), join(project, 'node_modules', '.bin', 'ledger'));
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));
  writeFileSync(join(project, 'package.json'), '{ "name": "readme-example", "type": "module", "private": true }\n');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const inProject = (file: string, args: string[]) =>
  execa(file, args, {
    cwd: project,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
    timeout: 180_000,
    stripFinalNewline: false,
  });

describe('the Reproducible tests walkthrough, pasted as it stands', () => {
  it('the CI script passes twice in a row with identical output, and fails when a golden file differs', async () => {
    writeFileSync(join(project, 'ci.sh'), block('bash'));
    const first = await inProject('bash', ['ci.sh']);
    const second = await inProject('bash', ['ci.sh']);
    expect([first.exitCode, first.stdout]).toEqual([
      0,
      'rent: recorded golden/rent.json\nfailed_payout: recorded golden/failed_payout.json\n',
    ]);
    const third = await inProject('bash', ['ci.sh']);
    expect([second.exitCode, second.stdout]).toEqual([
      0,
      'rent: same as golden/rent.json\nfailed_payout: same as golden/failed_payout.json\n',
    ]);
    expect([third.exitCode, third.stdout]).toEqual([second.exitCode, second.stdout]);
    const golden = readFileSync(join(project, 'golden', 'failed_payout.json'), 'utf8');
    expect(golden).toContain('"status": "FAILED"');
    expect(golden).toContain('"event_type": "transfer.failed"');

    writeFileSync(
      join(project, 'golden', 'rent.json'),
      readFileSync(join(project, 'golden', 'rent.json'), 'utf8').replace(
        '"new_balance": 350000',
        '"new_balance": 350001',
      ),
    );
    const changed = await inProject('bash', ['ci.sh']);
    expect(changed.exitCode).not.toBe(0);
    expect(changed.stdout).toContain('-  "new_balance": 350001,\n+  "new_balance": 350000,');
  }, 240_000);

  it('the vitest and node:test examples import this package by its name and pass', async () => {
    const vitestExample = block('ts');
    const nodeExample = block('js');
    for (const example of [vitestExample, nodeExample]) expect(example).toContain(`from '${name}';`);
    writeFileSync(join(project, 'wallet.test.ts'), vitestExample);
    writeFileSync(join(project, 'wallet.test.mjs'), nodeExample);
    const vitest = await inProject(process.execPath, [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--root',
      project,
      'wallet.test.ts',
    ]);
    expect(vitest.exitCode, `${vitest.stdout}${vitest.stderr}`).toBe(0);
    expect(vitest.stdout).toMatch(/1 passed/);
    const node = await inProject(process.execPath, ['--test', 'wallet.test.mjs']);
    expect(node.exitCode, `${node.stdout}${node.stderr}`).toBe(0);
    expect(node.stdout).toMatch(/# pass 1\n/);
  }, 120_000);
});
