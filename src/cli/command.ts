import type * as Commander from 'commander';
import type { CommandLines, Invocation } from './io.js';
import { ID_VALUE, pastedId } from './pasted.js';
import { wrap } from '../text/wrap.js';

/**
 * Commands are declared with a small subset of commander's builder API (`option`, `addOption`,
 * `argument`, `addHelpText`, `action`), on these plain classes. An ordinary invocation is parsed here
 * (`parseFast`), so a command runs without loading commander, which costs more start-up time than
 * anything else the command line does. Anything this parser is not sure of (`--help`, an unknown or
 * combined flag, a missing value, too many or too few arguments, conflicting flags) is handed to
 * commander itself (`toCommander`), which parses, explains and prints help exactly as before.
 */

type Handler = (...args: any[]) => unknown;

/** A line of prose broken at spaces into lines of at most `width` columns, continued at its own indent; `  $ ` example lines are left whole. */
function wrapLine(line: string, width: number): string {
  return /^\s*\$ /.test(line) ? line : wrap(line, width).join('\n');
}

export class Option {
  readonly long: string | undefined;
  readonly short: string | undefined;
  /** `<value>`: a value must follow; `[value]`: one may. */
  readonly required: boolean;
  readonly optional: boolean;
  /** `--no-x`: sets x to false. */
  readonly negate: boolean;
  defaultValue: unknown;
  envVar: string | undefined;
  argChoices: string[] | undefined;
  parseArg: ((value: string, previous: unknown) => unknown) | undefined;
  conflictsWith: string[] = [];
  hidden = false;

  constructor(
    readonly flags: string,
    readonly description = '',
  ) {
    for (const word of flags.split(/[ ,|]+/)) {
      if (word.startsWith('--')) this.long = word;
      else if (/^-[^-]$/.test(word)) this.short = word;
    }
    this.required = flags.includes('<');
    this.optional = flags.includes('[');
    this.negate = Boolean(this.long?.startsWith('--no-'));
  }

  /** The key in `opts()`: `--customer-reference` → customerReference, `--no-transfers-out` → transfersOut. */
  attributeName(): string {
    return (this.long ?? this.short ?? '')
      .replace(/^--?(no-)?/, '')
      .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  }

  default(value: unknown): this {
    this.defaultValue = value;
    return this;
  }

  env(name: string): this {
    this.envVar = name;
    return this;
  }

  choices(values: string[]): this {
    this.argChoices = [...values];
    return this;
  }

  argParser(parse: (value: string, previous: unknown) => unknown): this {
    this.parseArg = parse;
    return this;
  }

  conflicts(names: string | string[]): this {
    this.conflictsWith.push(...(Array.isArray(names) ? names : [names]));
    return this;
  }
}

interface Argument {
  spec: string;
  description: string;
  required: boolean;
  parse: ((value: string) => string) | undefined;
}

export class Command {
  options: Option[] = [];
  commands: Command[] = [];
  parent: Command | undefined;
  private readonly declared: Argument[] = [];
  private readonly helpTexts: { position: 'before' | 'after'; text: string }[] = [];
  private summary = '';
  private handler: Handler | undefined;
  private values: Record<string, unknown> = {};
  /** Set to run the command inside another's process (a scenario step): see `Invocation`. */
  invocation: Invocation | undefined;
  /** Set by the program that runs the command: how it names and runs other command lines (see `CommandLines`). */
  commandLines: CommandLines | undefined;
  /** A command of the sandbox alone: refused (SANDBOX_ONLY) against a live service before any request (options.ts sandboxCommand). */
  onlySandbox = false;

  constructor(private title = '') {}

  name(): string;
  name(title: string): this;
  name(title?: string): string | this {
    if (title === undefined) return this.title;
    this.title = title;
    return this;
  }

  description(): string;
  description(text: string): this;
  description(text?: string): string | this {
    if (text === undefined) return this.summary;
    this.summary = text;
    return this;
  }

  option(flags: string, description: string, defaultValue?: unknown): this {
    return this.addOption(new Option(flags, description).default(defaultValue));
  }

  addOption(option: Option): this {
    // A flag whose value is an id (`--destination <wallet_id>`) takes it as pasted (pasted.ts).
    const value = ID_VALUE.exec(option.flags)?.[0];
    if (value && !option.parseArg) option.argParser((text) => pastedId(text, option.long ?? value));
    this.options.push(option);
    return this;
  }

  /** An argument; one that names an id or account (`<wallet_id>`, `<to>`) takes it as pasted (pasted.ts). */
  argument(spec: string, description: string): this {
    // An optional one is named as a required one is: `[wallet_id]` is syntax, `<wallet_id>` the value's name.
    const parse = ID_VALUE.test(spec)
      ? (text: string) => pastedId(text, spec.replace('...', '').replace(/^\[(.*)\]$/, '<$1>'))
      : undefined;
    this.declared.push({ spec, description, required: spec.startsWith('<'), parse });
    return this;
  }

  /** Help text, its prose wrapped to 80 columns (commander prints it as given); example lines stay whole. */
  addHelpText(position: 'before' | 'after', text: string): this {
    this.helpTexts.push({
      position,
      text: text
        .split('\n')
        .map((line) => wrapLine(line, 80))
        .join('\n'),
    });
    return this;
  }

  action(handler: Handler): this {
    this.handler = handler;
    return this;
  }

  addCommand(command: Command): this {
    command.parent = this;
    this.commands.push(command);
    return this;
  }

  /** The arguments' names as declared (`wallet_id` of `<wallet_id>`): which one an error is about. */
  argumentNames(): string[] {
    return this.declared.map((argument) => argument.spec.replace(/[<>[\].]/g, ''));
  }

  opts(): Record<string, unknown> {
    return this.values;
  }

  /**
   * Parses `words` (what follows the command's own name) and runs the action; returns false, having
   * done nothing, when commander should take the invocation instead.
   */
  async parseFast(words: string[], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
    if (!this.handler || this.commands.length > 0) return false;
    const values: Record<string, unknown> = {};
    const given = new Set<Option>();
    for (const option of this.options) {
      const key = option.attributeName();
      if (option.negate && !this.options.some((o) => o !== option && o.attributeName() === key)) values[key] = true;
      if (option.defaultValue !== undefined) values[key] = option.defaultValue;
    }
    const positional: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (word === '--') {
        positional.push(...words.slice(i + 1));
        break;
      }
      if (!word.startsWith('-') || word === '-') {
        positional.push(word);
        continue;
      }
      const [flag, inline] =
        word.startsWith('--') && word.includes('=')
          ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
          : [word, undefined];
      const option = this.options.find((o) => o.long === flag || o.short === flag);
      if (!option) return false;
      let value: unknown;
      if (option.required || option.optional) {
        const next =
          inline ??
          (option.required || (words[i + 1] !== undefined && !words[i + 1]!.startsWith('-')) ? words[++i] : undefined);
        if (next === undefined) return false;
        value = option.parseArg ? option.parseArg(next, values[option.attributeName()]) : next;
      } else {
        if (inline !== undefined) return false;
        value = !option.negate;
      }
      values[option.attributeName()] = value;
      given.add(option);
    }
    for (const option of this.options) {
      if (given.has(option) || !option.envVar || env[option.envVar] === undefined) continue;
      values[option.attributeName()] = option.parseArg
        ? option.parseArg(env[option.envVar]!, undefined)
        : env[option.envVar];
      given.add(option);
    }
    for (const option of given) {
      if (option.conflictsWith.some((name) => [...given].some((o) => o.attributeName() === name))) return false;
    }
    const required = this.declared.filter((a) => a.required).length;
    // A last argument written `<files...>` takes the rest, as an array.
    const variadic = this.declared.at(-1)?.spec.includes('...') ?? false;
    if (positional.length < required || (!variadic && positional.length > this.declared.length)) return false;
    this.values = values;
    const args = this.declared.map((argument, i) => {
      if (variadic && i === this.declared.length - 1) return positional.slice(i);
      const given = positional[i];
      return given !== undefined && argument.parse ? argument.parse(given) : given;
    });
    await this.handler(...args, values, this);
    return true;
  }

  /** The same command, and its subcommands, built with commander (for help, errors and completion). */
  toCommander(commander: typeof Commander): Commander.Command {
    const command = new commander.Command(this.title).description(this.summary);
    for (const option of this.options) {
      const built = new commander.Option(option.flags, option.description);
      if (option.defaultValue !== undefined) built.default(option.defaultValue);
      if (option.envVar) built.env(option.envVar);
      if (option.argChoices) built.choices(option.argChoices);
      if (option.parseArg) built.argParser(option.parseArg);
      if (option.conflictsWith.length > 0) built.conflicts(option.conflictsWith);
      if (option.hidden) built.hideHelp();
      command.addOption(built);
    }
    for (const argument of this.declared) {
      if (argument.parse) command.argument(argument.spec, argument.description, argument.parse);
      else command.argument(argument.spec, argument.description);
    }
    for (const help of this.helpTexts) command.addHelpText(help.position, help.text);
    const handler = this.handler;
    const { invocation, commandLines, onlySandbox } = this;
    const argumentNames = () => this.argumentNames();
    if (handler)
      command.action(async (...args: unknown[]) => {
        // The action finds the invocation, the command lines and the arguments' names on the command it is handed, commander's here.
        Object.assign(args[args.length - 1] as object, { invocation, commandLines, argumentNames, onlySandbox });
        await handler(...args);
      });
    for (const sub of this.commands) command.addCommand(sub.toCommander(commander));
    return command;
  }
}
