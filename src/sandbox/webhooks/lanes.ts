import type { WebhookLogRow } from '../../engine/events/webhooks.service.js';

/** One developer's deliveries: its own slots, so a slow or dead endpoint holds up no one else. */
export interface Lane {
  inFlight: Map<string, Promise<WebhookLogRow | undefined>>;
  /** How to abort each attempt in flight, by log id. */
  aborts: Map<string, AbortController>;
  /**
   * Moves on at each cancel: an attempt records its outcome only while the lane is at the epoch it
   * was sent in, checked inside the write, so one that ends after a restore or reset began writes nothing.
   */
  epoch: number;
  /** Choosing what to send is serialized per lane, so two callers never pick the same delivery. */
  selecting: Promise<unknown>;
  /** The timer's drain of this lane is still running. */
  ticking: boolean;
  /**
   * Deliveries whose write committed and that no handover has taken yet, by seq, in the order
   * written (Sandbox.onDeliveries): handed to the built-in receiver without reading them back.
   */
  fresh: Map<number, WebhookLogRow>;
}

/** Deliveries to the built-in receiver handed over in one write: a bound on how long one write holds the database. */
export const HANDOVER_BATCH = 64;
/** Fresh deliveries kept in memory per lane at most; the rest wait for the due-deliveries query. */
const FRESH_LIMIT = 4096;

/**
 * Every developer's lane, made on first use.
 * @example const lanes = new Lanes(); lanes.keep(deliveries); const lane = lanes.of(developerId);
 */
export class Lanes {
  private readonly lanes = new Map<string, Lane>();

  of(developerId: string): Lane {
    let lane = this.lanes.get(developerId);
    if (!lane) {
      lane = {
        inFlight: new Map(),
        aborts: new Map(),
        epoch: 0,
        selecting: Promise.resolve(),
        ticking: false,
        fresh: new Map(),
      };
      this.lanes.set(developerId, lane);
    }
    return lane;
  }

  all(): Lane[] {
    return [...this.lanes.values()];
  }

  /** Keeps deliveries that just committed for the next handover of their lane, which then need not look for them. */
  keep(deliveries: WebhookLogRow[]): void {
    for (const log of deliveries) {
      const lane = this.of(log.developer_id);
      if (lane.fresh.size < FRESH_LIMIT) lane.fresh.set(log.seq, log);
    }
  }

  /** Forgets every delivery kept: they belong to the database as it was (before a restore). */
  forgetKept(): void {
    this.lanes.forEach((lane) => lane.fresh.clear());
  }

  /** Waits until no lane is choosing and no attempt is in flight (once nothing new may start). */
  async settle(): Promise<void> {
    for (const lane of this.lanes.values()) await lane.selecting;
    await Promise.allSettled(this.all().flatMap((lane) => [...lane.inFlight.values()]));
  }

  /** Attempts in flight in every lane. */
  inFlight(): number {
    return this.all().reduce((n, lane) => n + lane.inFlight.size, 0);
  }
}

/** Up to a handover's worth of the lane's fresh deliveries that were due by `cutoff`, oldest first, taken out of memory. */
export function takeFresh(lane: Lane, cutoff: string): WebhookLogRow[] {
  const taken: WebhookLogRow[] = [];
  for (const [seq, log] of lane.fresh) {
    if (taken.length === HANDOVER_BATCH || log.next_retry_at! > cutoff) break;
    taken.push(log);
    lane.fresh.delete(seq);
  }
  return taken;
}

/** Once the lane has chosen (nothing new may start), aborts its attempts in flight, unrecorded, and waits for them to end. */
export async function cancelLane(lane: Lane): Promise<void> {
  await lane.selecting;
  lane.epoch += 1;
  for (const controller of lane.aborts.values()) controller.abort();
  await Promise.allSettled([...lane.inFlight.values()]);
}
