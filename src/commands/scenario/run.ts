import { Command, Option } from '../../cli/command.js';
import { SilentFailure } from '../../cli/errors.js';
import type { Io } from '../../cli/io.js';
import { action, enumOption, examples } from '../../cli/options.js';
import type { RunFlags } from '../../scenario/cli.js';

export function runCommand(): Command {
  return new Command('run')
    .argument('<file|dir...>', 'scenario files (.yaml, .yml, .json), or directories of them')
    .addOption(
      enumOption('--reporter <name>', 'pretty (the default on a terminal), tap (otherwise) or junit', [
        'pretty',
        'tap',
        'junit',
      ]),
    )
    .option(
      '--output <path>',
      'write the report to this file (junit for .xml unless --reporter says otherwise); people still get the pretty one',
    )
    .option('--bail', 'stop at the first scenario that does not pass')
    .option(
      '--seed <n>',
      "every scenario's sandbox from this seed, whatever its file says (default: the file's seed, else 1)",
    )
    .option(
      '--snapshot <name|path>',
      'start every scenario from this snapshot: a name saved with `sandbox snapshot save`, or a file (anything with a /)',
    )
    .addOption(
      new Option(
        '--exclude <glob>',
        'pass over the files below a directory that this glob names, unread (repeatable; ' +
          '* ? **, by the path from that directory; its .ledgerignore adds its own)',
      ).argParser((glob, previous) => [...((previous as string[] | undefined) ?? []), glob]),
    )
    .option(
      '--port <n>',
      'where the in-process sandbox listens, for its webhook receiver (0: a port the system picks, the default)',
    )
    .option(
      '--base-url <url>',
      'run against this running sandbox instead of a fresh one in this process for each scenario',
    )
    .addOption(
      new Option('--api-key <key>', 'with --base-url: the key (visible in ps: prefer LEDGER_API_KEY)').env(
        'LEDGER_API_KEY',
      ),
    )
    .addHelpText(
      'after',
      examples(
        'ledger scenario run examples/scenarios',
        'ledger scenario run test/scenarios --reporter junit --output report.xml',
        'ledger scenario run payouts.yaml --seed 7 --bail',
        'ledger scenario run smoke.yaml --base-url http://127.0.0.1:4010',
        "ledger scenario run test/scenarios --exclude 'broken/**' --exclude '*.bad.yaml'",
        'ledger scenario run test/scenarios --port 4020',
      ) +
        `For scenario run: 1 means a scenario failed, 2 a malformed file (each problem with its line and column; nothing runs), \
3 the sandbox of --base-url cannot be reached.
A file's format: docs/scenarios.md, and the JSON Schema in the package (schema/scenario.schema.json), for editors.
`,
    )
    .action(
      action(async (io: Io, paths: string[], flags: RunFlags) => {
        // The scenario engine, yaml and (for the default sandbox) the server load only here.
        const { runScenarioFiles } = await import('../../scenario/cli.js');
        // The steps' command lines come from the program through the Io: the engine imports no command.
        const exitCode = await runScenarioFiles(io, paths, flags, io.commandLines());
        if (exitCode !== 0) throw new SilentFailure(exitCode);
      }),
    );
}
