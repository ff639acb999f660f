import { createRequire } from 'node:module';
import type * as Commander from 'commander';

/**
 * commander, loaded with require: importing its CommonJS build from ESM costs a lexer pass over the
 * package and an ESM wrapper module at every start of the command line.
 */
const commander = createRequire(import.meta.url)('commander') as typeof Commander;

export const Command = commander.Command;
export type Command = Commander.Command;
export const Option = commander.Option;
export type Option = Commander.Option;
export const CommanderError = commander.CommanderError;
export type CommanderError = Commander.CommanderError;
