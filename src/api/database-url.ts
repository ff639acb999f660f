/**
 * Whether `location` names a PostgreSQL database, as the storage reads it (engine/db/location.ts):
 * said again here because client code loads nothing of engine/db, and the engine nothing of api/.
 */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/**
 * Where a database is, fit to show: a PostgreSQL URL with its password replaced by `***` (in the
 * user part and in a `password=` parameter, as libpq takes it); a file path or ':memory:' as it is.
 * Every place a database's location is shown or kept (the banner, the log, the state file, `sandbox
 * status`, /sandbox/health, error messages) shows it through this, so a password never leaves argv
 * or the environment it came in.
 * @example redactDatabase('postgres://ledger:s3cret@db:5432/ledger') // 'postgres://ledger:***@db:5432/ledger'
 */
export function redactDatabase(location: string): string {
  if (!isPostgresUrl(location)) return location;
  const at = location.split('?')[0]!.lastIndexOf('@');
  let url: URL | undefined;
  try {
    url = new URL(location);
  } catch {
    url = undefined;
  }
  // A password with a bare `/`, `?` or `#` is read by WHATWG as a host, a port or a path (its user
  // then empty), or not at all: everything between `//` and the last `@` may be secret, and the
  // parameters with it.
  if (!url || (at >= 0 && !url.username))
    return at < 0
      ? location.replace(/[?#].*$/, '')
      : `${location.slice(0, location.indexOf('//') + 2)}***${location.slice(at).replace(/[?#].*$/, '')}`;
  if (url.password) url.password = '***';
  for (const name of [...url.searchParams.keys()])
    if (name.toLowerCase() === 'password') url.searchParams.set(name, '***');
  return url.href.replaceAll('%2A%2A%2A', '***');
}

/**
 * PostgreSQL's answers that mean a database cannot be served from here, not a bug: connection (08), authorization (28),
 * no such database (3D), resources (53), operator action (57), privilege (42501), read-only (25006).
 */
const REFUSED = /^(08|28|3D|53|57)[0-9A-Z]{3}$|^(42501|25006)$/;

/**
 * Why the PostgreSQL database at `location` could not be opened, when it was not reached or refused
 * this server (a network error, a password, a database that does not exist), as one sentence naming
 * the URL without its password; undefined for any other failure, or for a SQLite location.
 * @example databaseRefusal(error, 'postgres://ledger:pw@db/ledger') // 'postgres://ledger:***@db/ledger: PostgreSQL cannot be used (connect ECONNREFUSED …)'
 */
export function databaseRefusal(error: unknown, location: string): string | undefined {
  if (!isPostgresUrl(location)) return undefined;
  // The driver's error, where the storage or its migrations kept it as the cause.
  let raw = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  while (raw && typeof raw.code !== 'string' && raw.cause instanceof Error) raw = raw.cause as typeof raw;
  const code = typeof raw?.code === 'string' ? raw.code : undefined;
  if (!code || !(REFUSED.test(code) || /^E[A-Z]+$/.test(code))) return undefined;
  // A driver's message names hosts and users, never the password; this makes sure of it.
  const password = passwordOf(location);
  const said = (typeof raw!.message === 'string' && raw!.message) || code;
  return `${redactDatabase(location)}: PostgreSQL cannot be used (${password ? said.replaceAll(password, '***') : said})`;
}

function passwordOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
