/**
 * `${NAME}` in a scenario: replaced by the variable's value in command lines, request lines,
 * bodies, headers and expected values. A string that is exactly `${NAME}` takes the value as it is
 * (a number stays a number, an object an object); inside longer text a value is written as text
 * (objects as JSON). `$${` is a literal `${`.
 */

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

export type Vars = Record<string, unknown>;

export class UnknownVariableError extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} has no value: define it under vars, or save it in an earlier step`);
  }
}

/** The variable names `text` refers to, in order. */
export function referencesIn(text: string): string[] {
  return [...text.matchAll(REFERENCE)].flatMap((m) => (m[1] ? [m[1]] : []));
}

/** Every variable name a value refers to, in any of its strings (keys included). */
export function referencesInValue(value: unknown): string[] {
  if (typeof value === 'string') return referencesIn(value);
  if (Array.isArray(value)) return value.flatMap(referencesInValue);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [...referencesIn(k), ...referencesInValue(v)]);
  return [];
}

/** A value as it reads inside text. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function lookup(vars: Vars, name: string): unknown {
  if (!Object.hasOwn(vars, name) || vars[name] === undefined) throw new UnknownVariableError(name);
  return vars[name];
}

/**
 * `text` with every reference replaced; `encode` is applied to each inserted value (a request
 * line percent-encodes them, so an id lands in the path as one segment).
 * @example interpolateText('/v1/wallets/${ADA}', { ADA: 'w1' }) // '/v1/wallets/w1'
 */
export function interpolateText(text: string, vars: Vars, encode: (value: string) => string = (v) => v): string {
  return text.replace(REFERENCE, (whole, name: string | undefined) =>
    name ? encode(asText(lookup(vars, name))) : '${',
  );
}

/**
 * A value with every string interpolated (keys too); a string that is exactly `${NAME}` becomes
 * the variable's value itself.
 * @example interpolateValue({ amount: '${AMOUNT}' }, { AMOUNT: 500 }) // { amount: 500 }
 */
export function interpolateValue(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    return whole ? lookup(vars, whole[1]!) : interpolateText(value, vars);
  }
  if (Array.isArray(value)) return value.map((item) => interpolateValue(item, vars));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [interpolateText(k, vars), interpolateValue(v, vars)]),
    );
  return value;
}
