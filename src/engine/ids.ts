import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** The only source of randomness in the engine: identifiers, account serials, keys and references. */
export interface Ids {
  uuid(): string;
  /** `count` random decimal digits. */
  digits(count: number): string;
  /** `count` random base62 characters. */
  base62(count: number): string;
  /** `count` random bytes. */
  bytes(count: number): Buffer;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function pick(alphabet: string, count: number, source: (n: number) => Buffer): string {
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < count) {
    for (const byte of source(count * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === count) break;
    }
  }
  return out;
}

export const cryptoIds: Ids = {
  uuid: () => randomUUID(),
  digits: (count) => pick('0123456789', count, randomBytes),
  base62: (count) => pick(BASE62, count, randomBytes),
  bytes: (count) => randomBytes(count),
};

/** Deterministic ids for tests: the same seed gives the same sequence. */
export function seededIds(seed = 'ledger'): Ids {
  let counter = 0;
  const stream = (n: number): Buffer => {
    const chunks: Buffer[] = [];
    let have = 0;
    while (have < n) {
      const block = createHash('sha256').update(`${seed}:${counter++}`).digest();
      chunks.push(block);
      have += block.length;
    }
    return Buffer.concat(chunks).subarray(0, n);
  };
  return {
    uuid: () => {
      const b = stream(16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    digits: (count) => pick('0123456789', count, stream),
    base62: (count) => pick(BASE62, count, stream),
    bytes: (count) => stream(count),
  };
}
