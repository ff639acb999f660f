import { accessSync, constants, existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { UsageError } from '../client/errors.js';
import type { CommandLines } from './command-step.js';
import { compileScenarios } from './compile.js';
import { type Excluded, excluder, IGNORE_FILE, ignoredIn } from './ignore.js';
import { FormatError, readScenarios } from './load.js';
import type { ScenarioFile } from './model.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * Scenario files below a directory, in path order; hidden folders, node_modules and what `excluded`
 * names (by the path below the directory given, `under`) are passed over without being read.
 */
function filesIn(dir: string, under: string, excluded: Excluded): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((item) => {
      const path = join(dir, item.name);
      const below = under === '' ? item.name : `${under}/${item.name}`;
      if (excluded(below)) return [];
      if (item.isDirectory())
        return item.name.startsWith('.') || item.name === 'node_modules' ? [] : filesIn(path, below, excluded);
      return item.isFile() && EXTENSIONS.has(extname(item.name).toLowerCase()) ? [path] : [];
    });
}

/**
 * The files one argument names, absolute: itself, or the scenario files below a directory but those
 * that `exclude` or the directory's .ledgerignore names (a file named on the command line is read
 * whatever they say). A missing path, or a directory of none, is a UsageError.
 */
function filesNamed(given: string, cwd: string, exclude: string[]): string[] {
  const path = resolve(cwd, given);
  if (!existsSync(path)) throw new UsageError(`${given}: no such file or directory`);
  if (!statSync(path).isDirectory()) return [path];
  const inside = filesIn(path, '', excluder([...exclude, ...ignoredIn(path)]));
  if (inside.length === 0)
    throw new UsageError(
      `${given}: no scenario files (.yaml, .yml or .json) in this directory` +
        (exclude.length > 0 || existsSync(join(path, IGNORE_FILE))
          ? ` but those that --exclude or its ${IGNORE_FILE} names`
          : ''),
    );
  return inside;
}

/**
 * `--output`: a file the report can take the place of. A directory is refused, and so is a file the
 * run reads (one of its scenario files, one below a directory it was given, the --snapshot file): the
 * report written there, and the removal of the last one first, would destroy it.
 */
export function checkReportPath(
  output: string,
  paths: string[],
  cwd: string,
  exclude: string[],
  snapshotFile?: string,
): void {
  if (output.trim() === '') throw new UsageError("--output is empty: name the report's file (report.xml)");
  const path = resolve(cwd, output);
  // A symbolic link there is replaced by the report, like any file: what it points to is not looked at.
  if (existsSync(path) && lstatSync(path).isDirectory())
    throw new UsageError(`--output ${output}: is a directory; name the report's file (${join(output, 'report.xml')})`);
  // The folders it goes in are made when the report is written, after the run: one that is a file cannot be.
  let folder = dirname(path);
  for (; !existsSync(folder) || !statSync(folder).isDirectory(); folder = dirname(folder)) {
    if (existsSync(folder))
      throw new UsageError(`--output ${output}: ${relative(cwd, folder) || folder} is a file, not a directory`);
  }
  // A folder it cannot write in (a read-only checkout) would lose the report after the whole run.
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new UsageError(
      `--output ${output}: cannot write in ${relative(cwd, folder) || '.'} ` +
        `(${(error as NodeJS.ErrnoException).code}); name a file in a directory you can write to`,
    );
  }
  if (path === snapshotFile)
    throw new UsageError(
      `--output ${output}: is the --snapshot file every scenario starts from; the report would replace it. Name another file (report.xml)`,
    );
  for (const given of paths) {
    let named: string[];
    try {
      named = filesNamed(given, cwd, exclude);
    } catch (error) {
      if (error instanceof UsageError) continue; // reported when the files are read
      throw error;
    }
    if (named.includes(path))
      throw new UsageError(
        `--output ${output}: is a scenario file this run reads; the report would replace it. Name another file (report.xml)`,
      );
  }
}

/**
 * The files that the arguments name (a directory stands for the .yaml, .yml and .json files below
 * it, but the excluded ones), each read and checked in full before anything runs. A missing path is a UsageError; every
 * file that breaks the format is in the FormatErrors thrown together (exit code 2).
 */
export function loadScenarioFiles(
  paths: string[],
  cwd: string,
  lines: CommandLines,
  exclude: string[] = [],
): ScenarioFile[] {
  const found = paths.flatMap((given) => filesNamed(given, cwd, exclude));
  const errors: FormatError[] = [];
  const files: ScenarioFile[] = [];
  for (const path of [...new Set(found)]) {
    const near = relative(cwd, path);
    const display = near && !near.startsWith('..') ? near : path;
    try {
      if (!EXTENSIONS.has(extname(path).toLowerCase()))
        throw new FormatError(display, [{ line: 1, column: 1, message: 'a scenario file is .yaml, .yml or .json' }]);
      // The format and what only a well-formed step can be checked for, in one report.
      const read = readScenarios(path, display);
      const { scenarios, problems } = compileScenarios(read.scenarios, lines);
      problems.push(...read.problems);
      if (problems.length > 0)
        throw new FormatError(
          display,
          problems.sort((a, b) => a.line - b.line || a.column - b.column),
        );
      files.push({ path, display, scenarios });
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new FormatErrors(errors);
  return files;
}

/** Every malformed file of a run. */
export class FormatErrors extends Error {
  constructor(readonly errors: FormatError[]) {
    super(errors.map((e) => e.message).join('\n'));
  }
}
