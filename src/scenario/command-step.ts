import type { Invocation } from '../commands/io.js';
import type { Stream } from '../commands/output/render.js';
import { locate } from '../commands/registry.js';
import { exitCodeOf, runLeaf, standalone } from '../program.js';
import type { Target } from './target.js';

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
 * @example await runCommandLine(['wallets', 'get', id], target, process.cwd()) // { exit: 0, data: { id, … } }
 */
export async function runCommandLine(words: string[], target: Target, cwd: string): Promise<CommandResult> {
  const { path, used } = locate(words);
  const command = (await standalone(path))!;
  const stdout = capture();
  const stderr = capture();
  const invocation: Invocation = { sources: { stdout, stderr, stdinIsTTY: false, env: {}, cwd, transport: target.transport }, exitCode: 0 };
  command.invocation = invocation;
  const own = words.slice(used);
  const end = own.includes('--') ? own.indexOf('--') : own.length;
  const flags = own.slice(0, end);
  const added = ['--base-url', target.baseUrl];
  if (!flags.includes('--json')) added.push('--json');
  if (!flags.some((w) => w === '--api-key' || w.startsWith('--api-key='))) added.push('--api-key', target.apiKey);
  let exit: number;
  try {
    await runLeaf(command, [...flags, ...added, ...own.slice(end)], { stdout, stderr }, {});
    exit = invocation.exitCode;
  } catch (error) {
    exit = exitCodeOf(error, stderr);
  }
  const result: CommandResult = { exit, stdout: stdout.text, stderr: stderr.text };
  try {
    if (stdout.text.trim()) result.data = JSON.parse(stdout.text);
  } catch {
    // Not JSON: the text is in stdout.
  }
  const error = /^Error \[([A-Z_]+)\]: (.*)$/m.exec(stderr.text);
  if (error) {
    const fields = [...stderr.text.slice(error.index).matchAll(/^ {2}([^:\n]+): (.*)$/gm)].map((m) => ({ field: m[1]!, message: m[2]! }));
    result.error = { code: error[1]!, message: error[2]!, ...(fields.length ? { fields } : {}) };
  }
  return result;
}
