import type { FieldRule, RequestName } from '../api/rules.js';
import { ApiError, UsageError } from './errors.js';
import { singleQuoted } from './shell-quote.js';
import { RULES } from './rules.generated.js';

/**
 * Checks what the command line is about to send against the sandbox's own request rules (see
 * src/api/rules.ts), so a malformed flag is a usage error (exit 2) before any request, and exit 1
 * keeps meaning "the API refused".
 */

/** How each field is called on the command line: `{ narration: '--narration', amount: '<amount>' }`. */
export type FlagNames = Record<string, string>;

export function rule(request: RequestName, field: string): FieldRule {
  const found = RULES[request].fields[field];
  if (!found) throw new Error(`${request} has no field ${field}`);
  return found;
}

/** The values an enum field allows, as the schema lists them. */
export function choicesOf(request: RequestName, field: string): string[] {
  return rule(request, field).enum ?? [];
}

/** What is wrong with one value under its rule (without the flag's name), or undefined. */
export function problem(rule: FieldRule, value: unknown): string | undefined {
  const m = rule.messages;
  if (value === null) return rule.nullable ? undefined : (m.type ?? 'must have a value');
  if (rule.type === 'boolean') return typeof value === 'boolean' ? undefined : (m.type ?? 'must be true or false');
  if (rule.type === 'string') {
    if (typeof value !== 'string') return m.type ?? 'must be text';
    const text = rule.trim ? value.trim() : value;
    if (rule.minLength && text.length === 0) return m.empty ?? 'must not be empty';
    if (rule.minLength !== undefined && text.length < rule.minLength)
      return m.minLength ?? `must be at least ${rule.minLength} characters`;
    if (rule.maxLength !== undefined && text.length > rule.maxLength)
      return m.maxLength ?? `must be at most ${rule.maxLength} characters`;
    if (rule.pattern !== undefined && !new RegExp(rule.pattern).test(text))
      return m.pattern ?? `is not in the expected form (${rule.pattern})`;
    if (rule.protocols && !isUrl(text, rule.protocols))
      return m.url ?? `must be a URL (${rule.protocols.join(' or ')})`;
    if (rule.enum && !rule.enum.includes(text)) return m.enum ?? `must be one of ${rule.enum.join(', ')}`;
    return undefined;
  }
  if (typeof value !== 'number' || Number.isNaN(value)) return m.type ?? 'must be a number';
  if (rule.type === 'integer' && !Number.isInteger(value)) return m.integer ?? 'must be a whole number';
  if (rule.minimum !== undefined && value < rule.minimum) return m.minimum ?? `must be at least ${rule.minimum}`;
  if (rule.exclusiveMinimum !== undefined && value <= rule.exclusiveMinimum)
    return m.minimum ?? `must be more than ${rule.exclusiveMinimum}`;
  if (rule.maximum !== undefined && value > rule.maximum) return m.maximum ?? `must be at most ${rule.maximum}`;
  return undefined;
}

function isUrl(text: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(text).protocol.replace(/:$/, ''));
  } catch {
    return false;
  }
}

/** Some schema messages begin with the field's own name ("limit must be at most 100"): the flag replaces it. */
function phrase(flag: string, field: string, message: string): string {
  return `${flag} ${message.startsWith(`${field} `) ? message.slice(field.length + 1) : message}`;
}

/**
 * Where to find the right value, for a field people fill from a list: a bank's name or initials
 * (`--bank GTB`) is what they type first, and `banks list --search` takes exactly that.
 */
function lookUp(field: string, value: unknown): string {
  if (!field.endsWith('bank_code') || typeof value !== 'string' || value.trim() === '') return '';
  const search = /^[\w.-]+$/.test(value.trim()) ? value.trim() : singleQuoted(value.trim());
  return `: \`ledger banks list --search ${search}\` shows the codes`;
}

/**
 * Checks a request body or query against its schema's rules and returns it with text trimmed where
 * the schema trims; the first problem is a UsageError naming the flag. `partial` checks only the
 * values given (before a prompt asks for the rest).
 * @example check('TransferBody', { destination_account_number: '0123456789', amount: 0 }, { amount: '<amount>' })
 */
export function check<T extends Record<string, unknown>>(
  request: RequestName,
  values: T,
  flags: FlagNames = {},
  options: { partial?: boolean } = {},
): T {
  const { fields, conditionals } = RULES[request];
  const flag = (field: string) => flags[field] ?? `--${field.replace(/_/g, '-')}`;
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const fieldRule = fields[field];
    if (!fieldRule) throw new Error(`${request} has no field ${field}`);
    const wrong = problem(fieldRule, value);
    if (wrong) throw new UsageError(`${phrase(flag(field), field, wrong)}${lookUp(field, value)}`);
    out[field] = fieldRule.trim && typeof value === 'string' ? value.trim() : value;
  }
  if (options.partial) return out as T;
  for (const [field, fieldRule] of Object.entries(fields)) {
    if (!fieldRule.optional && out[field] === undefined) throw new UsageError(`missing ${flag(field)}`);
  }
  for (const c of conditionals) {
    if (out[c.when] !== c.is) continue;
    if (c.required === (out[c.field] === undefined)) throw new UsageError(phrase(flag(c.field), c.field, c.message));
  }
  return out as T;
}

/**
 * A refusal of the API in the command line's words: each field it names called by its flag
 * (`destination_bank_code: required…` → `--bank: required…`); any other error as it is.
 */
export function inFlagTerms(error: unknown, flags: FlagNames): unknown {
  if (!(error instanceof ApiError) || !error.fields?.length) return error;
  const named = (field: string) => flags[field] ?? field;
  const first = error.fields.find((f) => error.message.startsWith(`${f.field}: `));
  const message = first ? named(first.field) + error.message.slice(first.field.length) : error.message;
  return error.reworded(message, { fields: error.fields.map((f) => ({ field: named(f.field), message: f.message })) });
}

/**
 * What a conditional rule says of `field` for this body: required (`threshold` for BALANCE_ABOVE),
 * refused (`threshold` for ON_CREDIT, with the schema's message), or nothing.
 */
export function condition(
  request: RequestName,
  field: string,
  body: Record<string, unknown>,
): { required: boolean; message: string } | undefined {
  return RULES[request].conditionals.find((c) => c.field === field && body[c.when] === c.is);
}

/** Refuses a flag that the body's choices do not use (`--target-wallet` with DISMISS), before anything is asked. */
export function refuseUnused(request: RequestName, body: Record<string, unknown>, flags: FlagNames): void {
  for (const c of RULES[request].conditionals) {
    if (!c.required && body[c.when] === c.is && body[c.field] !== undefined)
      throw new UsageError(phrase(flags[c.field] ?? c.field, c.field, c.message));
  }
}

/**
 * A whole number from the command line: digits only, as the API takes it. `1,000`, `1_000`, `12.5`,
 * `-5` and a leading zero (`007`) are refused rather than guessed at.
 */
export function wholeNumber(text: string, flag: string, unit = '', example = ''): number {
  const trimmed = text.trim();
  const label = `${flag} "${text}"`.trim();
  if (/^0\d+$/.test(trimmed))
    throw new UsageError(`${label} has a leading zero: write ${trimmed.replace(/^0+(?=\d)/, '')}`);
  if (!/^\d+$/.test(trimmed)) throw new UsageError(`${label} must be a whole number${unit}, digits only${example}`);
  const value = Number(trimmed);
  if (!Number.isSafeInteger(value)) throw new UsageError(`${label} is too large`);
  return value;
}

/** Kobo from the command line, checked against the field's rule (amount 1 to 10^13, threshold from 0). */
export function kobo(text: string, flag: string, request: RequestName = 'TransferBody', field = 'amount'): number {
  // Naira with kobo after the point (12.50, ₦1,500.75), or marked as naira (₦500, N5,000, NGN 500), is
  // refused too, with the number it means.
  const naira = /^(₦|N|NGN)?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/i.exec(text.trim());
  if (naira && (naira[1] !== undefined || naira[3] !== undefined)) {
    const fraction = (naira[3] ?? '').padEnd(2, '0');
    const meant = BigInt(naira[2]!.replace(/,/g, '')) * 100n + BigInt(fraction);
    throw new UsageError(
      `${flag} "${text}" must be a whole number of kobo, digits only: ₦${naira[2]}.${fraction} is ${meant}`.trim(),
    );
  }
  const value = wholeNumber(text, flag, ' of kobo', ' (500000 is ₦5,000.00)');
  const wrong = problem(rule(request, field), value);
  if (wrong) throw new UsageError(`${flag} ${wrong}`.trim());
  return value;
}

/** A prompt's check of free text against a field's rule. */
export function textCheck(request: RequestName, field: string): (text: string) => string | undefined {
  const fieldRule = rule(request, field);
  return (text) => problem(fieldRule, text);
}

/** A prompt's check of an amount typed in kobo ("₦500" or "1,000" is asked again, with the reason). */
export function koboCheck(request: RequestName, field: string): (text: string) => string | undefined {
  return (text) => {
    try {
      kobo(text, '', request, field);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
}
