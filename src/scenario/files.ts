import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { UsageError } from '../client/errors.js';
import type { CommandLines } from '../commands/io.js';
import { compileScenarios } from './compile.js';
import { FormatError, readScenarios } from './load.js';
import type { ScenarioFile } from './model.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Scenario files below a directory, in path order; hidden folders and node_modules are passed over. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((item) => {
      const path = join(dir, item.name);
      if (item.isDirectory()) return item.name.startsWith('.') || item.name === 'node_modules' ? [] : filesIn(path);
      return item.isFile() && EXTENSIONS.has(extname(item.name).toLowerCase()) ? [path] : [];
    });
}

/**
 * The files that the arguments name (a directory stands for the .yaml, .yml and .json files below
 * it), each read and checked in full before anything runs. A missing path is a UsageError; every
 * file that breaks the format is in the FormatErrors thrown together (exit code 2).
 */
export function loadScenarioFiles(paths: string[], cwd: string, lines: CommandLines): ScenarioFile[] {
  const found: string[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    if (!existsSync(path)) throw new UsageError(`${given}: no such file or directory`);
    if (statSync(path).isDirectory()) {
      const inside = filesIn(path);
      if (inside.length === 0) throw new UsageError(`${given}: no scenario files (.yaml, .yml or .json) in this directory`);
      found.push(...inside);
    } else {
      found.push(path);
    }
  }
  const errors: FormatError[] = [];
  const files: ScenarioFile[] = [];
  for (const path of [...new Set(found)]) {
    const near = relative(cwd, path);
    const display = near && !near.startsWith('..') ? near : path;
    try {
      if (!EXTENSIONS.has(extname(path).toLowerCase())) throw new FormatError(display, [{ line: 1, column: 1, message: 'a scenario file is .yaml, .yml or .json' }]);
      const { scenarios, problems } = compileScenarios(readScenarios(path, display), lines);
      if (problems.length > 0) throw new FormatError(display, problems.sort((a, b) => a.line - b.line || a.column - b.column));
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
