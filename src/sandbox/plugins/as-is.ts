import type { ZodType } from 'zod';

/** What this reads of a zod schema's definition (zod 4's `_zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  catchall?: ZodType;
  innerType?: ZodType;
  checks?: { _zod: { def: CheckDef } }[];
  values?: unknown[];
  entries?: Record<string, unknown>;
}

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  maximum?: number;
  minimum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
}

type Check = (value: unknown) => boolean;

const defOf = (schema: ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A schema's checks, its own first: a format schema (`z.int()`, `z.email()`) is itself a check. */
const checksOf = (def: Def & Partial<CheckDef>): CheckDef[] => [
  ...(def.check ? [def as CheckDef] : []),
  ...(def.checks ?? []).map((c) => c._zod.def),
];

/** Each check a string may carry, as a test of the string; undefined for one that changes it or is not read here. */
function stringCheck(def: CheckDef): ((text: string) => boolean) | undefined {
  const { pattern, maximum, minimum, length } = def;
  if (def.check === 'string_format' && def.format === 'regex' && pattern && !pattern.global && !pattern.sticky)
    return (text) => pattern.test(text);
  if (def.check === 'max_length' && maximum !== undefined) return (text) => text.length <= maximum;
  if (def.check === 'min_length' && minimum !== undefined) return (text) => text.length >= minimum;
  if (def.check === 'length_equals' && length !== undefined) return (text) => text.length === length;
  return undefined;
}

function numberCheck(def: CheckDef): ((number: number) => boolean) | undefined {
  const { value, inclusive } = def;
  if (def.check === 'number_format' && def.format === 'safeint') return Number.isSafeInteger;
  if (def.check === 'greater_than' && value !== undefined)
    return inclusive ? (number) => number >= value : (number) => number > value;
  if (def.check === 'less_than' && value !== undefined)
    return inclusive ? (number) => number <= value : (number) => number < value;
  return undefined;
}

function all<T>(checks: ((value: T) => boolean)[]): (value: T) => boolean {
  return (value) => checks.every((check) => check(value));
}

/**
 * A test, compiled once from a zod schema, that a value passes that schema *unchanged*: zod would
 * accept it and answer an equal value (same fields, same order, same values). True only then; false
 * means "ask zod", which also gives the problems by field. Undefined when the schema has a part this
 * does not read (a transform, a default, a trim, a nested object or array, a union, ...): zod always.
 * Read: objects (strict, stripping or loose), strings with regex and length checks, numbers with
 * safe-integer and bound checks, booleans, literals, enums, optional fields.
 * @example const check = asIsCheck(TransferBody); if (check?.(body)) { ...no parse needed... }
 */
export function asIsCheck(schema: ZodType): Check | undefined {
  const def = defOf(schema);
  // A refinement is a check too (on an object, an optional, ...): only strings' and numbers' are read.
  if (def.type !== 'string' && def.type !== 'number' && checksOf(def).length > 0) return undefined;
  switch (def.type) {
    case 'string': {
      const checks = checksOf(def).map(stringCheck);
      if (checks.some((c) => c === undefined)) return undefined;
      const every = all(checks as ((text: string) => boolean)[]);
      return (value) => typeof value === 'string' && every(value);
    }
    case 'number': {
      const checks = checksOf(def).map(numberCheck);
      if (checks.some((c) => c === undefined)) return undefined;
      const every = all(checks as ((number: number) => boolean)[]);
      return (value) => typeof value === 'number' && Number.isFinite(value) && every(value);
    }
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'literal': {
      const values = def.values ?? [];
      return values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
        ? (value) => values.includes(value)
        : undefined;
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      return (value) => values.includes(value);
    }
    case 'optional': {
      const inner = def.innerType && asIsCheck(def.innerType);
      return inner && ((value) => value === undefined || inner(value));
    }
    case 'object':
      return objectCheck(def);
    default:
      return undefined;
  }
}

function objectCheck(def: Def): Check | undefined {
  const catchall = def.catchall && defOf(def.catchall).type;
  // No catchall: unknown fields are dropped (the value would change); never: refused; unknown: kept as they are.
  if (catchall !== undefined && catchall !== 'never' && catchall !== 'unknown') return undefined;
  const loose = catchall === 'unknown';
  const names = Object.keys(def.shape ?? {});
  const fields = names.map((name) => asIsCheck(def.shape![name]!));
  if (fields.some((f) => f === undefined)) return undefined;
  const position = new Map(names.map((name, i) => [name, i]));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    // zod answers the known fields in the schema's order: the value's own must already be in it.
    // A loose object's other fields come after the known ones.
    let last = -1;
    let other = false;
    for (const key of Object.keys(record)) {
      const at = position.get(key);
      if (at === undefined) {
        if (!loose) return false;
        other = true;
        continue;
      }
      if (at < last || other) return false;
      last = at;
    }
    return fields.every((field, i) => field!(record[names[i]!]));
  };
}
