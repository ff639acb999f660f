/** One thing the audit found wrong (defined here, beside the collector, so the checks import nothing above them). */
export interface AuditProblem {
  check: string;
  message: string;
  id?: string;
}

/** Rows an audit check holds at once: a check's memory stays this small whatever the table's size. */
export const CHUNK = 5_000;

/**
 * A table read in chunks of CHUNK rows in the order of an indexed key, each chunk its own query
 * starting after the last key of the one before (no OFFSET, no query left open between chunks).
 * @example for await (const rows of inChunks((after) => readAfter(after), (row) => row.seq, 0)) check(rows);
 */
export async function* inChunks<T, K>(
  read: (after: K, limit: number) => Promise<T[]>,
  keyOf: (row: T) => K,
  start: K,
): AsyncGenerator<T[]> {
  let after = start;
  for (;;) {
    const rows = await read(after, CHUNK);
    if (rows.length > 0) yield rows;
    if (rows.length < CHUNK) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/**
 * Pairs two streams that should hold the same keys, read side by side, each about as far as the
 * other: `left` keys with no partner on the right are reported by `missing`. Rows that pair are
 * dropped as they meet, so what is held is only the distance between the two streams.
 */
export async function pairUp<L, R>(
  left: AsyncGenerator<L[]>,
  leftKey: (row: L) => string,
  right: AsyncGenerator<R[]>,
  rightKey: (row: R) => string | undefined,
  missing: (row: L) => void,
): Promise<void> {
  const waiting = new Map<string, L>();
  const early = new Set<string>();
  let leftDone = false;
  let rightDone = false;
  while (!leftDone || !rightDone) {
    if (!leftDone) {
      const next = await left.next();
      if (next.done) leftDone = true;
      else for (const row of next.value) if (!early.delete(leftKey(row))) waiting.set(leftKey(row), row);
    }
    if (!rightDone) {
      const next = await right.next();
      if (next.done) rightDone = true;
      else
        for (const row of next.value) {
          const key = rightKey(row);
          if (key !== undefined && !waiting.delete(key)) early.add(key);
        }
    }
  }
  for (const row of waiting.values()) missing(row);
}

/** The problems an audit found, the first LIMIT of them listed: a badly broken ledger cannot fill the memory with its report. */
export class Problems {
  static readonly LIMIT = 1_000;
  readonly listed: AuditProblem[] = [];
  private unlisted = 0;

  push(problem: AuditProblem): void {
    if (this.listed.length < Problems.LIMIT) this.listed.push(problem);
    else this.unlisted++;
  }

  get any(): boolean {
    return this.listed.length > 0;
  }

  /** Every listed problem, then one line counting those left out. */
  report(): AuditProblem[] {
    return this.unlisted === 0
      ? this.listed
      : [...this.listed, { check: 'more_problems', message: `${this.unlisted} more problems not listed` }];
  }
}
