import { createRequire } from 'node:module';
import type * as Commander from 'commander';

/**
 * commander, loaded only for help, listings, completion and invocations the command's own parser
 * hands over (command.ts), and with require: importing its CommonJS build from ESM costs a lexer pass
 * over the package and an ESM wrapper module.
 */
export const commander = createRequire(import.meta.url)('commander') as typeof Commander;
