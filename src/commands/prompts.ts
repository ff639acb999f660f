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
