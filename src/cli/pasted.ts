import { UsageError } from '../client/errors.js';

/**
 * The values that name something by id or account number (`<wallet_id>`, `<account>`, `<to>`,
 * `--destination <wallet_id>`): none can hold a space or a quote, so what a paste brings along (a
 * trailing space, the quotes around a copied value) is removed rather than sent and answered
 * NOT_FOUND. An id cut to fit a table (`01a20c05-55…`) is refused with where to find it whole.
 */
export const ID_VALUE = /[<[](?:[a-z]+_)*(?:id|account|to|account_number)[\]>]/;

const QUOTED = /^(?:"(.*)"|'(.*)'|“(.*)”|‘(.*)’|`(.*)`)$/s;

/** `text` as the id it names: without surrounding white space or quotes; a cut id is a usage error. */
export function pastedId(text: string, label: string): string {
  let value = text.trim();
  const quoted = QUOTED.exec(value);
  if (quoted)
    value = quoted
      .slice(1)
      .find((inner) => inner !== undefined)!
      .trim();
  if (value === '') throw new UsageError(`${label} is empty${text === '' ? '' : ` ("${text}")`}`);
  if (value.includes('…') || value.endsWith('...')) {
    throw new UsageError(
      `${label} "${text}" is an id shortened to fit a table: \`--wide\` shows ids whole, \`--quiet\` prints only them`,
    );
  }
  return value;
}
