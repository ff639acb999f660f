import type { CommandLines } from './command-step.js';
import { parseDuration } from '../api/duration.js';
import { parseSeed } from '../sandbox/start-options.js';
import { referencesIn, referencesInValue } from './interpolate.js';
import { isObject, type JsonPath, type LocatedScenario } from './load.js';
import { type Expectation, type Problem, RESULT_FIELDS, type Scenario, type Step, type StepKind } from './model.js';
import { REQUEST_LINE, type ScenarioInput, SNAPSHOT_STEP } from './schema.js';
import { splitWords, WordsError } from './words.js';

/**
 * From a scenario that has the right shape to one that can run: command lines split into words
 * and checked against the command registry, request lines parsed, and every `${NAME}` checked to
 * have a value by the time its step runs (from vars, or saved by an earlier step). What cannot run
 * is a problem with its line, found before any sandbox starts. A scenario that broke the format
 * (load.ts reported how) is checked here too, but for its steps that did, and is not returned.
 */

/** Commands that manage or follow a sandbox process rather than call the API. */
export const NOT_IN_SCENARIOS: Record<string, string> = {
  'sandbox start': 'the scenario has its own sandbox (or --base-url names one)',
  'sandbox stop': 'the scenario’s sandbox stops by itself at the end',
  'sandbox status': 'the scenario’s sandbox is in this process',
  'sandbox env': 'it prints shell exports',
  'webhooks tail': 'it follows deliveries until Ctrl-C; use expect_webhook',
  'sandbox open': 'its login link is for a person at a browser, and the scenario’s sandbox stops at its end',
  'logs tail': 'it follows requests until Ctrl-C; use logs list',
  completion: 'it prints a shell script',
  'scenario run': 'scenarios do not run scenarios',
  'scenario init': 'it writes a file',
};

type RawStep = Record<string, unknown>;

export function compileScenarios(
  located: LocatedScenario[],
  lines: CommandLines,
): { scenarios: Scenario[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const scenarios: Scenario[] = [];
  const names = new Set<string>();
  for (const { value, position, broken } of located) {
    const report = (path: JsonPath, message: string, key?: string) =>
      problems.push({ ...position(path, key), message });
    if (typeof value.name === 'string') {
      if (names.has(value.name))
        report([], `another scenario in this file is also named "${value.name}": each needs its own name`, 'name');
      names.add(value.name);
    }
    const defined = new Set(Object.keys(isObject(value.vars) ? value.vars : {}));
    const compileList = (list: ScenarioInput['steps'] | undefined, key: 'setup' | 'steps') =>
      (Array.isArray(list) ? list : []).flatMap((raw, i) => {
        if (broken?.[key].has(i)) {
          // Its shape is reported; what it saves still counts, so that later steps are not blamed for it.
          const save = isObject(raw) ? raw.save : undefined;
          for (const name of Object.keys(isObject(save) ? save : {})) defined.add(name);
          return [];
        }
        const step = compileStep(raw, [key, i], position, defined, report, lines);
        return step ? [step] : [];
      });
    const setup = compileList(value.setup, 'setup');
    const steps = compileList(value.steps, 'steps');
    if (broken) continue;
    scenarios.push({
      name: value.name,
      line: position([]).line,
      seed: value.seed === undefined ? undefined : parseSeed(value.seed),
      vars: value.vars ?? {},
      setup,
      steps,
      audit: value.audit ?? true,
    });
  }
  return { scenarios, problems };
}

function compileStep(
  raw: ScenarioInput['steps'][number],
  path: JsonPath,
  position: LocatedScenario['position'],
  defined: Set<string>,
  report: (path: JsonPath, message: string, key?: string) => void,
  lines: CommandLines,
): Step | undefined {
  const value: RawStep =
    typeof raw === 'string' ? (REQUEST_LINE.test(raw.trim()) ? { request: raw.trim() } : { run: raw }) : raw;
  const { line, column } = position(path);
  const kind = (['run', 'request', 'advance', 'snapshot', 'expect_webhook'] as const).find((k) => k in value)!;
  const at = typeof raw === 'string' ? path : [...path, kind];
  const expectations = (key: 'expect' | 'match'): Expectation[] =>
    Object.entries((value[key] as Record<string, unknown> | undefined) ?? {}).map(([field, expected]) => ({
      path: field,
      expected,
      line: position([...path, key], field).line,
    }));
  const base = {
    line,
    column,
    name: value.name as string | undefined,
    save: (value.save as Record<string, string> | undefined) ?? {},
    expect: expectations('expect'),
    expectError: value.expect_error as string | undefined,
  };
  let before = 0;
  const problem = (message: string, where: JsonPath = at, key?: string) => {
    before += 1;
    report(where, message, key);
  };

  // Every ${NAME} must have a value by now: vars, or a save of an earlier step.
  const uses = referencesInValue({ ...value, save: undefined, name: undefined });
  for (const name of new Set(uses))
    if (!defined.has(name))
      problem(`\${${name}} has no value here: define it under vars, or save it in an earlier step`);
  for (const name of Object.keys(base.save)) defined.add(name);
  checkFields(kind, base.expect, base.save, (message, where, key) => problem(message, [...path, where], key));
  for (const expectation of [...base.expect, ...(kind === 'expect_webhook' ? expectations('match') : [])]) {
    const matches = (expectation.expected as { matches?: unknown } | null)?.matches;
    if (typeof matches === 'string' && referencesIn(matches).length === 0) {
      try {
        new RegExp(matches);
      } catch (error) {
        problem(
          `${expectation.path}: matches is not a regular expression (${(error as Error).message})`,
          [...path, 'expect'],
          expectation.path,
        );
      }
    }
  }

  let step: Step | undefined;
  switch (kind) {
    case 'run': {
      const text = String(value.run);
      const words = commandWords(text, (message) => problem(message), defined, lines);
      if (words) step = { ...base, kind, text: text.trim().replace(/\s+/g, ' '), words };
      break;
    }
    case 'request': {
      const [, method, target] = REQUEST_LINE.exec(String(value.request).trim())!;
      hintBareVariables(target!, defined, (message) => problem(message));
      step = {
        ...base,
        kind,
        text: `${method} ${target}`,
        method: method!,
        target: target!,
        body: value.body,
        headers: (value.headers as Record<string, string | null>) ?? {},
      };
      break;
    }
    case 'advance':
      step = {
        ...base,
        kind,
        text: `advance ${String(value.advance)}`,
        seconds: parseDuration(value.advance as string | number),
      };
      break;
    case 'snapshot': {
      const [, action, snapshot] = SNAPSHOT_STEP.exec(String(value.snapshot))!;
      step = {
        ...base,
        kind,
        text: `snapshot ${action} ${snapshot}`,
        action: action as 'save' | 'restore',
        snapshot: snapshot!,
      };
      break;
    }
    case 'expect_webhook':
      step = {
        ...base,
        kind,
        text: `expect_webhook ${String(value.expect_webhook)}`,
        eventType: String(value.expect_webhook),
        match: expectations('match'),
      };
      break;
  }
  return before === 0 ? step : undefined;
}

/** Each expect and save path must start with a field the step's result has. */
function checkFields(
  kind: StepKind,
  expect: Expectation[],
  save: Record<string, string>,
  problem: (message: string, where: 'expect' | 'save', key: string) => void,
): void {
  const fields = RESULT_FIELDS[kind];
  const known = (path: string) => fields.includes(path.split(/[.[]/)[0]!);
  const what =
    `a${kind === 'advance' || kind === 'expect_webhook' ? 'n' : ''} ${kind} step's result has ` +
    `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`;
  for (const { path } of expect) if (!known(path)) problem(`"${path}": ${what}`, 'expect', path);
  for (const [name, path] of Object.entries(save))
    if (!known(path)) problem(`save ${name}: "${path}": ${what}`, 'save', name);
}

/**
 * The words of a command line, checked: it splits as a shell would split it, names a command that
 * a scenario can run, and leaves where requests go to the scenario. `ledger` in front is allowed.
 */
function commandWords(
  text: string,
  problem: (message: string) => void,
  defined: Set<string>,
  lines: CommandLines,
): string[] | undefined {
  let words: string[];
  try {
    words = splitWords(text);
  } catch (error) {
    if (!(error instanceof WordsError)) throw error;
    problem(`${error.message}: ${text.slice(Math.max(0, error.index - 10), error.index + 20).trim()}`);
    return undefined;
  }
  if (words[0] === 'ledger') words = words.slice(1);
  hintBareVariables(text, defined, problem);
  const { path, used, known, runs, children } = lines.name(words);
  if (!known) {
    problem(`unknown command "${words[0] ?? ''}": run ledger --help for the commands`);
    return undefined;
  }
  if (!runs) {
    problem(`"${path}" needs a subcommand: ${children.join(', ')}`);
    return undefined;
  }
  if (NOT_IN_SCENARIOS[path]) {
    problem(`"${path}" cannot run in a scenario: ${NOT_IN_SCENARIOS[path]}`);
    return undefined;
  }
  if (words.slice(used).some((w) => w === '--base-url' || w.startsWith('--base-url='))) {
    problem(
      '--base-url is not for a step: every step goes to the scenario’s sandbox (`scenario run --base-url` sets it for the whole run)',
    );
    return undefined;
  }
  return words;
}

/** `$ADA` where `${ADA}` was meant: a shell habit that would otherwise send the text "$ADA". */
function hintBareVariables(text: string, defined: Set<string>, problem: (message: string) => void): void {
  for (const match of text.matchAll(/(?<!\$)\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (defined.has(match[1]!)) problem(`$${match[1]} is not replaced: write \${${match[1]}}`);
  }
}
