/** An API key (`svc_test_…`, `svc_live_…`) or a webhook secret (`whsec_…`), as it is or percent-encoded in a URL. */
const SECRET = /(svc(?:_|%5[fF])(?:test|live)(?:_|%5[fF])|whsec(?:_|%5[fF]))[A-Za-z0-9+/=%]+/g;

/**
 * `text` with every API key and webhook secret in it replaced by its prefix and `[redacted]`: the
 * request log writes each URL, and a key sent in the query string or the path (`?api_key=svc_test_…`)
 * must not reach it: logs never hold a key or a webhook secret (decisions: Keys and secrets).
 * @example withoutSecrets('/sandbox/clock?api_key=svc_test_abc') // '/sandbox/clock?api_key=svc_test_[redacted]'
 */
export function withoutSecrets(text: string): string {
  return text.includes('svc') || text.includes('whsec') ? text.replace(SECRET, '$1[redacted]') : text;
}

/** The names of fields whose value is a credential: an API key, a secret, a password, a token. */
const CREDENTIAL = 'secret|password|passwd|token|api_?key|apikey|authorization|signature|private_?key';
const SECRET_NAME = new RegExp(CREDENTIAL, 'i');
/** Such a field in JSON text that does not parse: `"api_key": "…"`. */
const SECRET_FIELD_TEXT = new RegExp(`("[^"\\\\]*(?:${CREDENTIAL})[^"\\\\]*"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"?`, 'gi');
/** The most of a request body the request log keeps. */
export const KEPT_BODY_CHARS = 4096;

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return withoutSecrets(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([name, field]) => [name, SECRET_NAME.test(name) ? '[redacted]' : redactValue(field)]),
    );
  return value;
}

/**
 * A request body as the request log keeps it (decisions: Request log): JSON with every field named
 * like a credential replaced by `[redacted]` and every API key or webhook secret in a value cut to
 * its prefix; a body that did not parse, as text, likewise; at most KEPT_BODY_CHARS characters.
 * @example redactedBody({ api_key: 'abc', note: 'whsec_xyz' }) // '{"api_key":"[redacted]","note":"whsec_[redacted]"}'
 */
export function redactedBody(parsed: unknown, text?: string): string | null {
  const kept =
    parsed !== undefined
      ? JSON.stringify(redactValue(parsed))
      : text !== undefined
        ? withoutSecrets(text.replace(SECRET_FIELD_TEXT, '$1"[redacted]"'))
        : undefined;
  if (kept === undefined) return null;
  return kept.length > KEPT_BODY_CHARS ? `${kept.slice(0, KEPT_BODY_CHARS)}…` : kept;
}
