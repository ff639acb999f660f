import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the base64 part
 * of a `whsec_` secret. Several secrets give several space-separated signatures.
 * @example signatureHeader(['whsec_…'], 'evt_1', 1700000000, '{"a":1}')
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${hmac(secret, id, timestamp, body)}`).join(' ');
}

function hmac(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** True when any v1 signature in the header matches any of the secrets. */
export function verifySignature(secrets: string[], id: string, timestamp: string, body: string, header: string): boolean {
  const given = header
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3)));
  return secrets.some((secret) => {
    const expected = Buffer.from(hmac(secret, id, Number(timestamp), body));
    return given.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
}
