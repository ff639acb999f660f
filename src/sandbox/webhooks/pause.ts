import { storageFailure } from '../../engine/db/storage-errors.js';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/**
 * While the storage refuses writes, nothing is sent (decisions: Webhooks): an attempt that cannot be
 * recorded is not made. Each refusal pauses deliveries for a while of real time, doubling up to
 * 30 s; any write that commits shows the storage works again, and they resume at once.
 * @example const pause = new Pause(onPause); await pause.guard(() => sandbox.write(work, developerId));
 */
export class Pause {
  private until = 0;
  private backoff = FIRST_BACKOFF_MS;

  constructor(private readonly onPause?: (paused: boolean, reason: string) => void) {}

  get paused(): boolean {
    return Date.now() < this.until;
  }

  resume(): void {
    if (this.until === 0) return;
    this.until = 0;
    this.backoff = FIRST_BACKOFF_MS;
    this.onPause?.(false, 'the database takes writes again');
  }

  /** Runs a write of the dispatcher's; a storage failure pauses every delivery and is rethrown. */
  async guard<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const failure = storageFailure(error);
      if (failure) {
        if (this.until === 0) this.onPause?.(true, failure.message);
        this.until = Date.now() + this.backoff;
        this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
      }
      throw error;
    }
  }
}
