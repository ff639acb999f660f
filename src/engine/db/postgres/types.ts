import pg from 'pg';

/** What `count(*)` and every integer column (`bigint`) give, and what `sum` of a `bigint` gives. */
const INT8 = pg.types.builtins.INT8;
const NUMERIC = pg.types.builtins.NUMERIC;

/**
 * An integer's text as a JS number, as SQLite gives it; anything else throws rather than round. Kobo
 * never passes through a float: 2^53 and beyond would come back as a neighbouring number, and a
 * fraction has no business where the engine reads an integer.
 */
function exactInteger(text: string): number {
  const value = Number(text);
  if (/^-?\d+$/.test(text) && Number.isSafeInteger(value)) return value;
  throw new RangeError(
    `PostgreSQL returned ${text} where an integer is read, and a JS number holds integers exactly only up to ±${Number.MAX_SAFE_INTEGER}`,
  );
}

/**
 * How a pool of this project's reads PostgreSQL's values: `bigint` and `numeric` as exact JS numbers
 * (exactInteger), everything else as pg does by default. Per pool, so nothing else in the process that
 * uses pg reads differently.
 * @example new pg.Pool({ connectionString, types: postgresTypes })
 */
export const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (oid === INT8 || oid === NUMERIC) && format !== 'binary'
      ? exactInteger
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
