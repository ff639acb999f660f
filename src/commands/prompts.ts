import { UsageError } from '../client/errors.js';
import type { Io } from './io.js';

/** The only module that loads @inquirer/prompts, and only when a person must be asked. */

/**
 * Returns `value` when given; otherwise asks on a terminal, or fails as a usage error (exit 2)
 * naming the flag, so scripts never hang on a question.
 */
export async function requireValue(io: Io, value: string | undefined, flag: string, message: string): Promise<string> {
  if (value !== undefined && value !== '') return value;
  if (!io.interactive()) throw new UsageError(`missing ${flag} (no terminal to ask on)`);
  const { input } = await import('@inquirer/prompts');
  return input({ message, required: true, validate: (text) => (text.trim() ? true : `${message} is required`) });
}

/** Asks yes/no on a terminal; without one (scripts, CI) there is nobody to ask and the answer is yes. */
export async function confirm(io: Io, message: string, skip: boolean | undefined): Promise<boolean> {
  if (skip || !io.interactive()) return true;
  const prompts = await import('@inquirer/prompts');
  return prompts.confirm({ message, default: false });
}

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

function needTerminal(io: Io, flag: string): void {
  if (!io.interactive()) throw new UsageError(`missing ${flag} (no terminal to ask on)`);
}

/** Picks one of a few choices on a terminal; without one, names the flag that was missing. */
export async function choose<T>(io: Io, flag: string, message: string, choices: Choice<T>[]): Promise<T> {
  needTerminal(io, flag);
  const { select } = await import('@inquirer/prompts');
  return select({ message, choices, pageSize: 12 });
}

/** Picks from a long list by typing to filter it. */
export async function searchFor<T>(io: Io, flag: string, message: string, choices: Choice<T>[]): Promise<T> {
  needTerminal(io, flag);
  const { search } = await import('@inquirer/prompts');
  return search({
    message,
    pageSize: 12,
    source: async (term) => {
      const needle = (term ?? '').toLowerCase();
      return choices.filter((c) => c.name.toLowerCase().includes(needle));
    },
  });
}

/** Free text that may be left empty (undefined). */
export async function optionalInput(io: Io, message: string): Promise<string | undefined> {
  if (!io.interactive()) return undefined;
  const { input } = await import('@inquirer/prompts');
  const text = (await input({ message })).trim();
  return text === '' ? undefined : text;
}
