import { readFileSync } from 'node:fs';
import { type Document, isMap, isScalar, LineCounter, type Node, parseAllDocuments } from 'yaml';
import type { ZodType } from 'zod';
import { aliasProblem } from './aliases.js';
import { MAX_DEPTH, tooDeep } from './depth.js';
import type { Problem } from './model.js';
import { Matcher, NumberMatcher, Scenario, type ScenarioInput, Step, STEP_KINDS } from './schema.js';

/**
 * Reading a scenario file: YAML (several scenarios as documents separated by `---`, or a list) or
 * JSON (one scenario or a list), checked against the format in schema.ts. Every problem is reported
 * with its line and column, in words that say what to write instead.
 */

export type JsonPath = (string | number)[];

/** A scenario read from a file, and where each of its parts is in the file. */
export interface LocatedScenario {
  /** As written: only its fields that passed the format can be trusted when `broken` is set. */
  value: ScenarioInput;
  /** 1-based position of the value at `path` (below this scenario), or of the key `key` inside it. */
  position(path: JsonPath, key?: string): { line: number; column: number };
  /**
   * Set when the scenario breaks the format (its problems are already reported): it will not run,
   * but its steps that have the right shape are still checked, so that one run reports every problem.
   * Holds, for `setup` and `steps`, the indexes of the steps that do not.
   */
  broken?: { setup: Set<number>; steps: Set<number> };
}

/** A file that breaks the format (exit code 2): every problem found, in file order. */
export class FormatError extends Error {
  constructor(
    readonly file: string,
    readonly problems: Problem[],
  ) {
    super(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`).join('\n'));
  }
}

const SCENARIO_KEYS = 'name, description, seed, vars, setup, steps and audit';
const STEP_KEYS = Object.keys(STEP_KINDS).join(', ');
const MATCHER_NAMES = Object.keys(Matcher.shape).join(', ');

/** A file the run cannot read (its mode, a folder's) is reported with the malformed ones, not as a crash. */
function readable(path: string, display: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new FormatError(display, [
      {
        line: 1,
        column: 1,
        message:
          `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ` +
          `pass it over with --exclude or .ledgerignore if it is not a scenario`,
      },
    ]);
  }
}

/**
 * Reads one file and checks it against the format. A file that cannot be read as YAML or JSON at all
 * (unreadable, nested too deep, not JSON) throws FormatError; otherwise its scenarios come back, those
 * that break the format marked, with every problem of the format found.
 */
export function readScenarios(path: string, display: string): { scenarios: LocatedScenario[]; problems: Problem[] } {
  const text = readable(path, display);
  const lines = new LineCounter();
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const deep = tooDeep(text);
  if (deep !== undefined) {
    throw new FormatError(display, [
      {
        ...positionIn(text, deep),
        message: `nested deeper than ${MAX_DEPTH} levels: a scenario file nests lists and maps at most ${MAX_DEPTH} deep`,
      },
    ]);
  }
  if (/\.json$/i.test(path)) {
    // JSON is read as JSON first: YAML would also take comments and trailing commas, which JSON tools refuse.
    try {
      JSON.parse(text);
    } catch (error) {
      const offset = Number(/position (\d+)/.exec((error as Error).message)?.[1] ?? text.length);
      throw new FormatError(display, [
        {
          ...positionIn(text, offset),
          message: `not JSON: ${(error as Error).message.replace(/ in JSON at position \d+.*$/, '')}`,
        },
      ]);
    }
  }
  const documents = parseAllDocuments(text, { lineCounter: lines, merge: true, prettyErrors: true });
  const problems: Problem[] = [];
  const scenarios: LocatedScenario[] = [];
  for (const document of documents) {
    // The first syntax error of a document: the ones after it mostly follow from it.
    const [error] = document.errors;
    if (error) {
      const { line, col } = error.linePos?.[0] ?? { line: 1, col: 1 };
      const source = lineOf(text, line);
      const hint = /[{[][^}\]]*\$\{/.test(source)
        ? ' (inside { … } or [ … ], quote a value that holds ${…}: "${NAME}")'
        : /\{[^}]*\w\[\d+\]/.test(source)
          ? ' (inside { … }, quote a path with [ ]: "data.items[0].id", or write data.items.0.id)'
          : '';
      problems.push({
        line,
        column: col,
        message: `not YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}${hint}`,
      });
    }
    if (document.errors.length > 0 || document.contents === null) continue;
    const aliases = aliasProblem(document);
    if (aliases) {
      problems.push({ ...at(aliases.offset), message: aliases.message });
      continue;
    }
    // aliasProblem has bounded the aliases and placed them in the file; the package's own count throws with no place.
    const root: unknown = document.toJS({ maxAliasCount: -1 });
    const items = Array.isArray(root)
      ? root.map((value, i) => ({ value, prefix: [i] }))
      : [{ value: root, prefix: [] as JsonPath }];
    for (const { value, prefix } of items) {
      const position = (path: JsonPath, key?: string) => at(offsetOf(document, [...prefix, ...path], key));
      const found = check(Scenario, value, [], position);
      problems.push(...found);
      if (found.length === 0) scenarios.push({ value: value as ScenarioInput, position });
      else if (isObject(value))
        scenarios.push({
          value: value as ScenarioInput,
          position,
          broken: { setup: misshapen(value.setup), steps: misshapen(value.steps) },
        });
    }
  }
  if (problems.length === 0 && scenarios.length === 0)
    problems.push({ line: 1, column: 1, message: 'no scenario in this file: it needs at least name and steps' });
  return { scenarios, problems };
}

/** The indexes of a list's steps that break the format. */
function misshapen(list: unknown): Set<number> {
  if (!Array.isArray(list)) return new Set();
  return new Set(list.flatMap((step, i) => (Step.safeParse(step).success ? [] : [i])));
}

/** 1-based line and column of `offset`, found only when there is a problem to place. */
function positionIn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

function lineOf(text: string, line: number): string {
  return text.split('\n')[line - 1] ?? '';
}

/** Where the node at `path` starts, or its key `key` (the nearest existing parent when it is not there). */
function offsetOf(document: Document, path: JsonPath, key?: string): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = (depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true)) as Node | undefined;
    if (!node?.range) continue;
    if (key !== undefined && depth === path.length && isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
      if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
    }
    return node.range[0];
  }
  return 0;
}

type Position = (path: JsonPath, key?: string) => { line: number; column: number };

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

function valueAtPath(root: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined,
    root,
  );
}

/** The problems of `value` under `schema`, each put where it is in the file and said for people. */
function check(schema: ZodType, value: unknown, at: JsonPath, position: Position): Problem[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return (result.error.issues as Issue[]).flatMap((issue) => explain(issue, value, at, position));
}

function explain(issue: Issue, root: unknown, at: JsonPath, position: Position): Problem[] {
  const relative = issue.path as JsonPath;
  const path = [...at, ...relative];
  const here = valueAtPath(root, relative);
  const parent = path.at(-2);
  if (issue.code === 'invalid_union') {
    if ((parent === 'steps' || parent === 'setup') && typeof path.at(-1) === 'number')
      return stepProblems(here, path, position);
    if (isObject(here) && path.at(-1) === 'length') return check(NumberMatcher, here, path, position);
    if (isObject(here) && (parent === 'expect' || parent === 'match')) return check(Matcher, here, path, position);
  }
  if (issue.code === 'unrecognized_keys')
    return (issue.keys ?? []).map((key) => ({ ...position(path, key), message: unknownKey(path, key) }));
  const where = path.length > 0 ? `${pathText(path)}: ` : '';
  return [{ ...position(path), message: `${where}${issue.message}` }];
}

/** A step is one of the kinds, named by its key; each kind is checked on its own so the message fits it. */
function stepProblems(step: unknown, path: JsonPath, position: Position): Problem[] {
  if (!isObject(step))
    return [
      {
        ...position(path),
        message: `${pathText(path)}: a step is a command line, a request line, or an object with one of ${STEP_KEYS}`,
      },
    ];
  const kinds = Object.keys(step).filter((key): key is keyof typeof STEP_KINDS => key in STEP_KINDS);
  if (kinds.length === 1) return check(STEP_KINDS[kinds[0]!], step, path, position);
  if (kinds.length > 1)
    return [
      {
        ...position(path, kinds[1]),
        message: `a step does one thing: this one has ${kinds.join(' and ')} (make them separate steps)`,
      },
    ];
  const strangers = Object.keys(step).filter(
    (key) => !['name', 'save', 'expect', 'expect_error', 'match', 'body', 'headers'].includes(key),
  );
  if (strangers.length > 0)
    return strangers.map((key) => ({
      ...position(path, key),
      message: `unknown step key "${key}": a step has one of ${STEP_KEYS}`,
    }));
  return [{ ...position(path), message: `${pathText(path)}: a step needs one of ${STEP_KEYS}` }];
}

function unknownKey(path: JsonPath, key: string): string {
  const parent = path.at(-2);
  if (path.at(-1) === 'length') return `unknown matcher "${key}" for length: use eq, gt, gte, lt or lte`;
  if (parent === 'expect' || parent === 'match') return `unknown matcher "${key}": the matchers are ${MATCHER_NAMES}`;
  if (parent === 'steps' || parent === 'setup') {
    return (
      `unknown key "${key}" in this step: besides one of ${STEP_KEYS}, a step may have name, save, ` +
      `expect and expect_error (a request also body and headers, expect_webhook also match)`
    );
  }
  if (path.length === 0) return `unknown key "${key}": a scenario has ${SCENARIO_KEYS}`;
  return `${pathText(path)}: unknown key "${key}"`;
}

/** `steps[2].expect.data.id` */
function pathText(path: JsonPath): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}
