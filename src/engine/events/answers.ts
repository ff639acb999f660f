// How a delivery's answer is stored. The built-in receiver answers every delivery it accepts with
// the same body; attempts and logs store it as NULL beside its 2xx status (migration 0015) instead
// of repeating it on every row. No other 2xx answer is stored as NULL: one from an HTTP endpoint
// always has a body (empty at least), and an attempt with no status stores why in `error`.

/** What the built-in receiver says to a delivery it accepts. */
export const RECEIVER_ACCEPTED = JSON.stringify({ received: true, signature_valid: true });

const ok = (status: number | null) => status !== null && status >= 200 && status < 300;

/** A response body as stored: the receiver's standard answer to a 2xx is NULL. */
export function storedBody(status: number | null, body: string | null): string | null {
  return ok(status) && body === RECEIVER_ACCEPTED ? null : body;
}

/** A stored attempt or log row with its response body as it was answered. */
export function withAnsweredBody<R extends { http_status_code: number | null; response_body: string | null }>(
  row: R,
): R {
  return row.response_body === null && ok(row.http_status_code) ? { ...row, response_body: RECEIVER_ACCEPTED } : row;
}
