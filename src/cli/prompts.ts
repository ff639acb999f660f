import { UsageError } from '../client/errors.js';
import type { Io } from './io-types.js';
import { clean } from '../text/clean.js';

/**
 * The only module that loads @inquirer/prompts, and only when a person must be asked. Every question
 * comes before anything is sent, so Ctrl-C at one (ExitPromptError, reported as exit 130) changes
 * nothing. An answer that breaks a rule is asked again with the reason; it never ends the flow.
 */

/** What is wrong with an answer, or undefined when it will do. */
export type Check = (text: string) => string | undefined;

const asValidate = (check?: Check) => (text: string) => check?.(text) ?? true;

/**
 * Without a terminal there is nobody to ask: a missing value is a usage error naming its flag, or
 * every missing flag at once (a script fixes them in one go, not one run at a time).
 */
export function needTerminal(io: Io, ...flags: string[]): void {
  const named = flags.length > 1 ? `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)}` : flags[0];
  if (flags.length > 0 && !io.interactive()) throw new UsageError(`missing ${named} (no terminal to ask on)`);
}

/**
 * Returns `value` when given (checked: a bad flag is a usage error); otherwise asks on a terminal
 * until the answer passes `check`, or fails as a usage error naming the flag, so scripts never hang.
 */
export async function requireValue(
  io: Io,
  value: string | undefined,
  flag: string,
  message: string,
  check?: Check,
): Promise<string> {
  if (value !== undefined && value !== '') {
    const wrong = check?.(value);
    if (wrong) throw new UsageError(`${flag} ${wrong}`);
    return value;
  }
  needTerminal(io, flag);
  const { input } = await import('@inquirer/prompts');
  io.announceTarget();
  const answer = await input({
    message,
    required: true,
    validate: (text) => (text.trim() ? asValidate(check)(text.trim()) : `${message} is required`),
  });
  return answer.trim();
}

/**
 * Asks yes/no on a terminal; without one (scripts, CI) there is nobody to ask and the answer is yes.
 * On a live service the question is answered by typing `typed.expected` (the amount, the account
 * number) instead: io.confirmLive.
 */
export async function confirm(
  io: Io,
  message: string,
  skip: boolean | undefined,
  typed?: { expected: string; named: string },
): Promise<boolean> {
  if (skip || !io.interactive()) return true;
  if (typed && io.asksLive()) {
    await io.confirmLive(message, typed.expected, typed.named);
    return true;
  }
  const prompts = await import('@inquirer/prompts');
  io.announceTarget();
  return prompts.confirm({ message: clean(message), default: false });
}

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
  /** What the answer line shows once it is picked (default: the name). */
  short?: string;
  /** More text that typing finds the choice by, not shown (a search picker's). */
  match?: string;
}

const cleaned = <T>(choices: Choice<T>[]) =>
  choices.map((c) => ({ ...c, name: clean(c.name), ...(c.description ? { description: clean(c.description) } : {}) }));

/**
 * Choices as a picker shows them: each on one line of the terminal (the cursor and a space before
 * it), cut with `…` where it would run on (a choice that wrapped took two lines, and the list jumped
 * as the cursor moved), and the answer shown after the question likewise.
 */
async function fitted<T>(io: Io, message: string, choices: Choice<T>[]): Promise<Choice<T>[]> {
  const width = io.stdout.columns;
  if (!width) return choices;
  const { displayWidth, truncate } = await import('./output/table.js');
  // The answer, once picked, stands after the question ("✔ Which held payment? …"): it fits there too.
  const after = Math.max(20, width - displayWidth(message) - 4);
  return choices.map((c) => ({
    ...c,
    name: truncate(c.name, Math.max(20, width - 3)),
    short: truncate((c.short ?? c.name).trim(), after),
  }));
}

/** Picks one of a few choices on a terminal (`preselect` starts highlighted); without one, names the flag that was missing. */
export async function choose<T>(
  io: Io,
  flag: string,
  message: string,
  choices: Choice<T>[],
  preselect?: T,
): Promise<T> {
  needTerminal(io, flag);
  const { select } = await import('@inquirer/prompts');
  io.announceTarget();
  return select({
    message,
    choices: await fitted(io, message, cleaned(choices)),
    pageSize: 12,
    ...(preselect !== undefined ? { default: preselect } : {}),
  });
}

/**
 * Picks from a long list by typing to filter it. Before anything is typed only `suggested` is shown
 * (when there is one), so nothing is picked for the person by its place in the list; with
 * `showAll`, every choice is, in its order (a queue worked oldest first).
 */
export async function searchFor<T>(
  io: Io,
  flag: string,
  message: string,
  choices: Choice<T>[],
  options: { suggested?: T | undefined; showAll?: boolean } = {},
): Promise<T> {
  needTerminal(io, flag);
  const { search } = await import('@inquirer/prompts');
  io.announceTarget();
  const all = cleaned(choices);
  // Matched against the whole text, shown as it fits; `match` stays out of what the picker shows.
  const shown = (await fitted(io, message, all)).map(({ match: _, ...shown }) => shown);
  const texts = all.map((c) => `${c.name} ${c.match ?? ''}`.toLowerCase());
  return search({
    message,
    pageSize: 12,
    source: async (term) => {
      // Every word typed must match, in any order: "ada 7,000" finds Ada's ₦7,000.00 payment.
      const words = (term ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
      if (words.length === 0)
        return options.showAll
          ? shown
          : shown.filter((c) => options.suggested !== undefined && c.value === options.suggested);
      return shown.filter((_, i) => words.every((word) => texts[i]!.includes(word)));
    },
  });
}

/** Free text that may be left empty (undefined), asked again while it breaks `check`. */
export async function optionalInput(io: Io, message: string, check?: Check): Promise<string | undefined> {
  if (!io.interactive()) return undefined;
  const { input } = await import('@inquirer/prompts');
  io.announceTarget();
  const text = (
    await input({ message, validate: (t) => (t.trim() === '' ? true : asValidate(check)(t.trim())) })
  ).trim();
  return text === '' ? undefined : text;
}

/**
 * A live service's confirmation: what will happen, then the person types `expected` (the amount, an
 * account number, a count) to go on, which a reflexive Enter or "y" cannot do. Anything else
 * cancels, before anything is sent (NOT_CONFIRMED, exit 2).
 */
export async function confirmTyped(io: Io, summary: string, expected: string, named?: string): Promise<void> {
  const { input } = await import('@inquirer/prompts');
  io.announceTarget();
  io.stderr.write(`${clean(summary)}\n`);
  const answer = await input({
    message: `Type ${named ? `${named}, ${clean(expected)},` : clean(expected)} to confirm (anything else cancels)`,
  });
  if (answer.trim() !== expected)
    throw new UsageError(
      `you typed "${clean(answer.trim())}", not ${clean(expected)}: cancelled, nothing was sent`,
      'NOT_CONFIRMED',
    );
}

/**
 * A secret (an API key) typed at a terminal, each character shown as `*`: it reaches neither the
 * screen, the shell's history nor `ps`. Asked again while it breaks `check`, whose reason must not
 * repeat what was typed. Without a terminal, a usage error naming `flag`.
 */
export async function secret(io: Io, flag: string, message: string, check?: Check): Promise<string> {
  needTerminal(io, flag);
  const { password } = await import('@inquirer/prompts');
  const answer = await password({
    message,
    mask: '*',
    validate: (text) => (text.trim() ? asValidate(check)(text.trim()) : `${message} is required`),
  });
  return answer.trim();
}
