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
