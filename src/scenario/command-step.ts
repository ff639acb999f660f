import type { Transport } from '../client/http.js';
import type { Stream } from '../text/wrap.js';
import type { Target } from './target.js';

/**
 * Other ledger command lines, as the program names and runs them (program.ts `commandLines`). The
 * program hands them to the command it runs, through the command's Io, and `scenario run` hands
 * them to the scenario engine, which sits below the commands: neither imports the registry or the
 * program, which load that command.
 */
export interface CommandLines {
  /** The deepest command `words` name and how many words that took; whether it is known, runs (a group does not), and a group's subcommands. */
  name(words: string[]): { path: string; used: number; known: boolean; runs: boolean; children: string[] };
  /**
   * Runs a command line in this process, as `ledger` runs it: its output, environment and requests
   * go where `invocation.sources` says, `added` words follow the command's own flags (before any
   * `--`), and it resolves the exit code the command would have had.
   */
  run(words: string[], added: string[], invocation: StepInvocation): Promise<number>;
}

/** Where a command run this way writes, how its requests travel (each by default as `ledger`'s own), and the exit code it would have had. */
export interface StepInvocation {
  sources: {
    stdout?: Stream;
    stderr?: Stream;
    stdinIsTTY?: boolean;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    transport?: Transport;
  };
  exitCode: number;
}

/** Where a scenario's command-line steps run: the directory, and the command lines handed in. */
export interface Shell {
  cwd: string;
  lines: CommandLines;
}

/** What a command-line step did: what `expect` and `save` paths read. */
export interface CommandResult {
  exit: number;
  /** The --json output, parsed (absent when it printed none). */
  data?: unknown;
  /** From `Error [CODE]: message` on stderr, with the fields the API named. */
  error?: { code: string; message: string; fields?: { field: string; message: string }[] };
  stdout: string;
  stderr: string;
}

function capture(): Stream & { text: string } {
  const stream = {
    text: '',
    isTTY: false,
    write(text: string) {
      stream.text += text;
      return true;
    },
  };
  return stream;
}

/**
 * Runs a ledger command line in this process, through the same code as `ledger` itself: the
 * registry's module, its parser (commander when that is unsure), its flag checks against the
 * API's rules, its runner and its error reporting. It prints its --json data and gets the exit
 * code it would have had; its requests go to the scenario's sandbox (`--base-url` and `--api-key`
 * are added, unless the step gives its own key), through the target's transport. There is no
 * terminal, so nothing is ever asked.
 * @example await runCommandLine(['wallets', 'get', id], target, shell) // { exit: 0, data: { id, … } }
 */
export async function runCommandLine(words: string[], target: Target, shell: Shell): Promise<CommandResult> {
  const stdout = capture();
  const stderr = capture();
  const invocation: StepInvocation = {
    sources: { stdout, stderr, stdinIsTTY: false, env: {}, cwd: shell.cwd, transport: target.transport },
    exitCode: 0,
  };
  // The command's own flags: the words before any `--` (the command's path has no flags).
  const flags = words.includes('--') ? words.slice(0, words.indexOf('--')) : words;
  const added = ['--base-url', target.baseUrl];
  if (!flags.includes('--json')) added.push('--json');
  if (!flags.some((w) => w === '--api-key' || w.startsWith('--api-key='))) added.push('--api-key', target.apiKey);
  const exit = await shell.lines.run(words, added, invocation);
  const result: CommandResult = { exit, stdout: stdout.text, stderr: stderr.text };
  try {
    if (stdout.text.trim()) result.data = JSON.parse(stdout.text);
  } catch {
    // Not JSON: the text is in stdout.
  }
  const error = /^Error \[([A-Z_]+)\]: (.*)$/m.exec(stderr.text);
  if (error) {
    const fields = [...stderr.text.slice(error.index).matchAll(/^ {2}([^:\n]+): (.*)$/gm)].map((m) => ({
      field: m[1]!,
      message: m[2]!,
    }));
    result.error = { code: error[1]!, message: error[2]!, ...(fields.length ? { fields } : {}) };
  }
  return result;
}
