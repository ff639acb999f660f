import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { developerSeq } from '../events/stored.js';
import {
  type TransactionGroup,
  deliveryGroups,
  deliveryRun,
  exactKobo,
  failingEndpoints,
  oldestSuspenseItem,
  type Period,
  suspenseGroups,
  transactionGroups,
} from './report.repository.js';

/** Kobo as JSON carries it exactly: a number up to 2^53 − 1, past that a string of digits. */
export type JsonKobo = number | string;

export function jsonKobo(value: bigint): JsonKobo {
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  return value <= safe && value >= -safe ? Number(value) : value.toString();
}

interface Total {
  count: number;
  amount: bigint;
}

const total = (): Total => ({ count: 0, amount: 0n });
const shown = (t: Total) => ({ count: t.count, amount: jsonKobo(t.amount) });

/** Statuses of a suspense item still waiting for someone. */
const WAITING = ['PENDING', 'FLAGGED'];

/**
 * What a developer's books did in a period, one query per section (transactions, suspense and its oldest waiting item,
 * deliveries and their failing endpoints), each grouped in SQL, so its cost follows the period's
 * rows and not the ledger's size. `now` is the developer's clock, for ages. Run it in one read
 * transaction, so the sections agree.
 * @example await buildReport(db, developerId, { since: Date.parse('2026-11-20T23:00:00Z'), until: null }, new Date())
 */
export async function buildReport(db: Kysely<Database>, developerId: string, period: Period, now: Date) {
  const developer = await developerSeq(db, developerId);
  const transactions = await transactionGroups(db, developerId, period);
  const suspense = await suspenseGroups(db, developerId, period);
  const oldest = await oldestSuspenseItem(db, developerId, period, WAITING);
  const run = await deliveryRun(db, developer, period);
  const deliveries = await deliveryGroups(db, developer, period, run);
  const endpoints = await failingEndpoints(db, developer, period, run);

  const byTypeStatus = new Map<string, Pick<TransactionGroup, 'type' | 'status'> & Total>();
  const moneyIn = total();
  const out = { settled: total(), pending: total(), failed: total() };
  let feesCharged = 0n;
  let feesReversed = 0n;
  for (const group of transactions) {
    const amount = exactKobo(group.amount);
    const key = `${group.type} ${group.status}`;
    const row = byTypeStatus.get(key) ?? { type: group.type, status: group.status, ...total() };
    row.count += group.count;
    row.amount += amount;
    byTypeStatus.set(key, row);
    if (group.kind === 'INBOUND_CREDIT') {
      moneyIn.count += group.count;
      moneyIn.amount += amount;
    } else if (group.kind === 'PAYOUT' && group.type === 'DEBIT') {
      const bucket = group.status === 'SETTLED' ? out.settled : group.status === 'FAILED' ? out.failed : out.pending;
      bucket.count += group.count;
      bucket.amount += amount;
      if (group.status === 'FAILED') feesReversed += exactKobo(group.fee);
    } else if (group.kind === 'PAYOUT_FEE' && group.type === 'DEBIT') {
      feesCharged += amount;
    }
  }

  return {
    since: new Date(period.since).toISOString(),
    until: new Date(period.until ?? now.getTime()).toISOString(),
    transactions: [...byTypeStatus.values()]
      .sort(byName('type', 'status'))
      .map((g) => ({ type: g.type, status: g.status, ...shown(g) })),
    money_in: shown(moneyIn),
    money_out: {
      settled: shown(out.settled),
      pending: shown(out.pending),
      failed: shown(out.failed),
      fees: jsonKobo(feesCharged - feesReversed),
    },
    net: jsonKobo(moneyIn.amount - out.settled.amount - out.pending.amount),
    suspense: {
      items: suspense
        .sort(byName('status', 'reason'))
        .map((g) => ({ status: g.status, reason: g.reason, count: g.count, amount: jsonKobo(exactKobo(g.amount)) })),
      oldest_waiting: oldest
        ? {
            id: oldest.id,
            status: oldest.status,
            reason: oldest.reason,
            created_at: oldest.created_at,
            age_seconds: Math.max(0, Math.floor((now.getTime() - Date.parse(oldest.created_at)) / 1000)),
          }
        : null,
    },
    webhooks: {
      deliveries: deliveries.sort(byName('status')),
      failing_endpoints: endpoints.map((e) => ({
        url: e.url,
        failed_attempts: e.failed_attempts,
        failing_deliveries: e.failing_deliveries,
        last_error: {
          at: new Date(e.last_at_ms).toISOString(),
          http_status_code: e.http_status_code,
          response_body: e.response_body,
          error: e.error,
        },
      })),
    },
  };
}

/** Rows in a stable order (by these fields, as text), so the same books give the same report. */
function byName<K extends string>(...fields: K[]) {
  return (a: Record<K, string>, b: Record<K, string>) => {
    for (const field of fields) if (a[field] !== b[field]) return a[field] < b[field] ? -1 : 1;
    return 0;
  };
}
