import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { exampleScenario, SCHEMA_FILE } from '../../scenario/example.js';
import { UsageError } from '../../client/errors.js';
import { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, examples } from '../../cli/options.js';
import { fitted } from '../../text/wrap.js';

export function initCommand(): Command {
  return new Command('init')
    .argument('[file]', 'where to write it (default scenario.yaml)')
    .option('--force', 'replace a file that is already there')
    .addHelpText(
      'after',
      examples(
        'ledger scenario init',
        'ledger scenario init test/scenarios/first.yaml && ledger scenario run test/scenarios',
      ),
    )
    .action(action(runInit));
}

/** Writes the commented example; its first line points editors at the schema, from the file's own folder. */
export async function runInit(io: Io, file: string | undefined, options: { force?: boolean }): Promise<void> {
  const path = resolve(io.cwd, file ?? 'scenario.yaml');
  if (existsSync(path) && !options.force)
    throw new UsageError(`${file ?? 'scenario.yaml'} is already there: pass --force to replace it`);
  let schema = relative(dirname(path), SCHEMA_FILE);
  if (!schema.startsWith('.')) schema = `./${schema}`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, exampleScenario(schema));
  io.stderr.write(
    fitted(
      io.stderr,
      `Wrote ${relative(io.cwd, path) || path}: run it with \`ledger scenario run ${relative(io.cwd, path) || path}\`\n`,
    ),
  );
}
