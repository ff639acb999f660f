import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the base64 part
 * of a `whsec_` secret. Several secrets give several space-separated signatures.
 * @example signatureHeader(['whsec_…'], 'evt_1', 1700000000, '{"a":1}')
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${hmac(secret, id, timestamp, body)}`).join(' ');
}

/** Signatures made most recently, by secret, id and timestamp, with the body each was made over. */
const recent = new Map<string, { body: string; mac: string }>();
/** Enough for the deliveries of one handover to the built-in receiver, signed and then verified. */
const RECENT_LIMIT = 256;
/** Each secret's key, decoded once (a handful per developer). */
const keys = new Map<string, Buffer>();

/**
 * HMAC-SHA256 of `id.timestamp.body`, remembered for the last few: a delivery handed to the
 * built-in receiver in-process is verified right after it was signed, over the same id, timestamp
 * and body, and gets the same result without hashing the body again. Any other input is hashed.
 */
function hmac(secret: string, id: string, timestamp: number, body: string): string {
  const memo = `${secret}\u0000${id}\u0000${timestamp}`;
  const known = recent.get(memo);
  if (known && known.body === body) return known.mac;
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= RECENT_LIMIT) keys.clear();
    key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    keys.set(secret, key);
  }
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value!);
  recent.set(memo, { body, mac });
  return mac;
}

/** True when any v1 signature in the header matches any of the secrets. */
export function verifySignature(
  secrets: string[],
  id: string,
  timestamp: string,
  body: string,
  header: string,
): boolean {
  const given = header
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3)));
  return secrets.some((secret) => {
    const expected = Buffer.from(hmac(secret, id, Number(timestamp), body));
    return given.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
}
