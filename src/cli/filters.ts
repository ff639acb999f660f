import type { Command } from './command.js';
import { Option } from './command.js';
import type { RequestName } from '../api/rules.js';
import { DAY_MS, lagosDayStart, parseDay, parseLocalInstant } from '../api/instant.js';
import { parseDuration } from '../api/duration.js';
import { ApiError, UnsupportedError, UsageError } from '../client/errors.js';
import { kobo, rule } from '../client/validate.js';
import type { Io } from './io.js';

/** The filter flags of the lists (decisions: Requests and validation), as commander hands them over. */
export interface FilterFlags {
  since?: string;
  until?: string;
  customer?: string;
  wallet?: string;
  amount?: string;
  sender?: string;
  reference?: string;
  status?: string;
}

/** Which filters a list takes besides time and status: the wallet ones, and those of a payment (amount, sender, reference). */
export interface FilterKinds {
  wallet: boolean;
  payment: boolean;
}

/** The filter flags' names as the API's parameters, for messages that name the flag. */
export const FILTER_FLAGS = {
  since: '--since',
  until: '--until',
  customer_reference: '--customer',
  wallet_id: '--wallet',
  amount_min: '--amount',
  amount_max: '--amount',
  sender: '--sender',
  provider_reference: '--reference',
  status: '--status',
};

/** The statuses a list's `status` parameter takes, read from its rule's pattern (`^(A|B)(,(A|B))*$`). */
export function statusChoices(request: RequestName): string[] {
  return /^\^\(([^)]*)\)/.exec(rule(request, 'status').pattern ?? '')?.[1]?.split('|') ?? [];
}

const TIME_HELP = 'an ISO date or time, today, yesterday, or a duration back from now (24h, 7d), on the sandbox clock';

/** Adds the filter flags a list takes. */
export function withFilters(command: Command, request: RequestName, kinds: FilterKinds): Command {
  command
    .option('--since <when>', `only items from then on: ${TIME_HELP}; a bare date from its start`)
    .option('--until <when>', `only items until then: ${TIME_HELP}; a bare date to its end`)
    // The choices feed help and shell completion; the parser leaves a list with commas for the rules to check.
    .addOption(
      new Option('--status <list>', 'only these statuses, one or several with commas')
        .choices(statusChoices(request))
        .argParser((text: string) => text.toUpperCase()),
    );
  if (kinds.wallet)
    command
      .option('--customer <reference>', 'only the wallet with this customer reference')
      .option('--wallet <id>', 'only this wallet');
  if (kinds.payment) {
    command
      .option('--amount <kobo>', 'only this amount in kobo, or a range min..max (either end may be left out)')
      .option('--sender <text>', 'only senders whose name contains this text, in any case')
      .option('--reference <ref>', 'only this provider reference (NIP session id)');
  }
  return command;
}

/**
 * The filter flags as a list's query parameters, every value checked before any request (exit 2
 * naming the flag), and then `times`, which gives `since` and `until`: a relative one (today,
 * yesterday, 24h) is read on the sandbox clock, with one `GET /sandbox/clock`, only when one is
 * given; a server without that clock is told to be given an ISO time.
 * @example
 * const filters = readFilters('SuspenseListQuery', { since: '24h', status: 'pending,flagged' });
 * const query = { ...listQuery(...filters.query), ...(await filters.times(io)) };
 */
export function readFilters(
  request: RequestName,
  flags: FilterFlags,
): { query: Record<string, string | number | undefined>; times(io: Io): Promise<{ since?: string; until?: string }> } {
  const since = flags.since === undefined ? undefined : readTime(flags.since, '--since', 'start');
  const until = flags.until === undefined ? undefined : readTime(flags.until, '--until', 'end');
  const [amountMin, amountMax] = flags.amount === undefined ? [] : amountRange(flags.amount, request);
  const query = {
    status: flags.status?.toUpperCase(),
    customer_reference: flags.customer,
    wallet_id: flags.wallet,
    amount_min: amountMin,
    amount_max: amountMax,
    sender: flags.sender,
    provider_reference: flags.reference,
  };
  const times = async (io: Io) => {
    if (!since && !until) return {};
    const relative = since?.relative
      ? `--since "${flags.since}"`
      : until?.relative
        ? `--until "${flags.until}"`
        : undefined;
    const now = relative ? await sandboxClock(io, relative) : new Date(0);
    const out = { since: since?.at(now).toISOString(), until: until?.at(now).toISOString() };
    if (out.since && out.until && out.since > out.until)
      throw new UsageError(`--since "${flags.since}" (${out.since}) is after --until "${flags.until}" (${out.until})`);
    return out;
  };
  return { query, times };
}

/** A time flag's value: a fixed instant, or one counted from the sandbox's now. */
interface Time {
  relative: boolean;
  at(now: Date): Date;
}

/**
 * `--since`/`--until` text as a time: an ISO time (with its zone, or Lagos time without one), a bare
 * date (its first millisecond for `--since`, its last for `--until`, so the day is included, a day in
 * Lagos), `today`, `yesterday` (Lagos days on the sandbox clock), or a duration back from now.
 */
export function readTime(text: string, flag: string, edge: 'start' | 'end'): Time {
  const value = text.trim();
  const fixed = (ms: number): Time => ({ relative: false, at: () => new Date(ms) });
  const day = parseDay(value);
  if (day !== undefined) return fixed(edge === 'start' ? day : day + DAY_MS - 1);
  const instant = parseLocalInstant(value);
  if (instant !== undefined) return fixed(instant);
  const lower = value.toLowerCase();
  if (lower === 'today' || lower === 'yesterday') {
    const back = lower === 'today' ? 0 : 1;
    return {
      relative: true,
      at: (now) => new Date(lagosDayStart(now.getTime()) - back * DAY_MS + (edge === 'start' ? 0 : DAY_MS - 1)),
    };
  }
  if (/^\d+(\.\d+)?\s*[smhd]$/.test(lower)) {
    const seconds = parseDuration(lower);
    return { relative: true, at: (now) => new Date(now.getTime() - seconds * 1000) };
  }
  throw new UsageError(
    `${flag} "${text}" must be an ISO date or time (2026-01-02, 2026-01-02T09:30:00Z), today, yesterday, or a duration such as 24h or 7d`,
  );
}

/** `--amount 700000`, `5000..10000`, `5000..` or `..10000` as [min, max] kobo. */
function amountRange(text: string, request: RequestName): [number | undefined, number | undefined] {
  const range = /^(.*?)\.\.(.*)$/.exec(text.trim());
  if (!range) {
    const exact = kobo(text, '--amount', request, 'amount_min');
    return [exact, exact];
  }
  const [, low = '', high = ''] = range;
  if (low.trim() === '' && high.trim() === '')
    throw new UsageError(
      `--amount "${text}" must be kobo (700000) or a range min..max (5000..10000, 5000.. or ..10000)`,
    );
  const min = low.trim() === '' ? undefined : kobo(low, '--amount', request, 'amount_min');
  const max = high.trim() === '' ? undefined : kobo(high, '--amount', request, 'amount_max');
  if (min !== undefined && max !== undefined && min > max)
    throw new UsageError(`--amount "${text}": the smaller amount comes first (${max}..${min})`);
  return [min, max];
}

/** The sandbox's now, for a relative time flag (`given` names it); a server with no sandbox clock cannot read one. */
export async function sandboxClock(io: Io, given: string): Promise<Date> {
  try {
    return new Date((await io.client().sandbox<{ now: string }>('GET', '/sandbox/clock')).now);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_A_SANDBOX') {
      throw new ApiError(
        error.status,
        'NOT_A_SANDBOX',
        `${given} is counted on the sandbox clock, and ${io.config().baseUrl} has none: give an ISO date or time instead`,
      );
    }
    // A server whose /openapi.json has no clock: refused before anything was sent.
    if (error instanceof UnsupportedError)
      throw new UnsupportedError(
        `${given} is counted on the sandbox clock, and ${io.config().baseUrl} has none: give an ISO date or time instead; nothing was sent`,
      );
    throw error;
  }
}
