import { createHash, randomFillSync } from 'node:crypto';

/**
 * The only source of randomness in the engine: identifiers, account serials and references. API keys
 * and webhook secrets draw from a source of their own (EngineEnv.secrets), never from a seeded one.
 */
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

/** Random bytes drawn from a pool filled a few kilobytes at a time (one call into OpenSSL per refill). */
function pooledRandom(): (count: number) => Buffer {
  const pool = Buffer.alloc(4096);
  let offset = pool.length;
  return (count) => {
    if (count > pool.length) return randomFillSync(Buffer.alloc(count));
    if (offset + count > pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    offset += count;
    return Buffer.from(pool.subarray(offset - count, offset));
  };
}

function formatUuid(b: Buffer): string {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Ids made one after the
 * other sort together, so each new row lands on the last page of its table's id index instead of
 * on a random one, and a commit writes a few pages instead of one per row. The time is only an
 * ordering hint; nothing reads it back, and the sandbox clock stays the only time the ledger uses.
 */
export function uuidV7(milliseconds: number, random: Buffer): string {
  const b = Buffer.from(random.subarray(0, 16));
  b.writeUIntBE(milliseconds, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return formatUuid(b);
}

const random = pooledRandom();

export const cryptoIds: Ids = {
  uuid: () => uuidV7(Date.now(), random(16)),
  digits: (count) => pick('0123456789', count, random),
  base62: (count) => pick(BASE62, count, random),
  bytes: (count) => random(count),
};

/** Where every seeded stream's UUIDv7 time field starts (2026-01-01T00:00:00Z); see seededIds. */
export const SEED_EPOCH_MS = Date.UTC(2026, 0, 1);

/** A seeded generator: the same seed, read from the same position, gives the same values. */
export interface SeededIds extends Ids {
  readonly seed: string;
  /** How far the stream has been read (blocks). Kept with the data, so a restart or a restore resumes from it. */
  position: number;
}

/**
 * One seeded generator for every id, number and reference the sandbox makes, never a secret
 * (decisions: Seeds and reproducibility): SHA-256 of
 * `seed:n` for n = 0, 1, 2, … as a stream of bytes. Ids stay UUIDv7 in form; their time field is
 * SEED_EPOCH_MS plus the stream position, so they still sort in the order they were made (what
 * UUIDv7 is for here) without reading any clock, and two runs give the same ids.
 * @example const ids = seededIds('7'); ids.uuid(); // the same id in every run with seed 7
 */
export function seededIds(seed: string | number = 'ledger'): SeededIds {
  const text = String(seed);
  let counter = 0;
  const stream = (n: number): Buffer => {
    const chunks: Buffer[] = [];
    let have = 0;
    while (have < n) {
      const block = createHash('sha256').update(`${text}:${counter++}`).digest();
      chunks.push(block);
      have += block.length;
    }
    return Buffer.concat(chunks).subarray(0, n);
  };
  return {
    seed: text,
    get position() {
      return counter;
    },
    set position(value: number) {
      counter = value;
    },
    uuid: () => {
      const milliseconds = SEED_EPOCH_MS + counter;
      return uuidV7(milliseconds, stream(16));
    },
    digits: (count) => pick('0123456789', count, stream),
    base62: (count) => pick(BASE62, count, stream),
    bytes: (count) => stream(count),
  };
}

/** True for a generator whose position must be kept with the data (see SeededIds). */
export function isSeeded(ids: Ids): ids is SeededIds {
  return typeof (ids as Partial<SeededIds>).seed === 'string';
}
