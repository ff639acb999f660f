import type { Command } from '../cli/command.js';
import type { Io } from '../cli/io.js';
import { action, clientCommand, examples } from '../cli/options.js';
import { naira } from '../text/format.js';
import type { Formatter, View } from '../cli/output/views.js';
import { periodQuery } from '../cli/period.js';
import { offers } from '../cli/remote.js';

type Kobo = number | string;
interface Total {
  count: number;
  amount: Kobo;
}
interface Report {
  since: string;
  until: string;
  transactions: ({ type: string; status: string } & Total)[];
  money_in: Total;
  money_out: { settled: Total; pending: Total; failed: Total; fees: Kobo };
  net: Kobo;
  suspense: {
    items: ({ status: string; reason: string } & Total)[];
    oldest_waiting: { id: string; status: string; reason: string; age_seconds: number } | null;
  };
  webhooks: {
    deliveries: { status: string; count: number }[];
    failing_endpoints: {
      url: string;
      failed_attempts: number;
      failing_deliveries: number;
      last_error: { at: string; http_status_code: number | null; response_body: string | null; error: string | null };
    }[];
  };
}

/** Lagos time (UTC+1, no daylight saving) of an ISO instant: "2026-11-21 10:30". */
const lagos = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

/** 95 → "1m 35s", 7200 → "2h 0m", 3 days → "3d 0h": an age to the minute, as a queue is worked. */
function waited(seconds: number): string {
  const [d, h, m] = [
    Math.floor(seconds / 86_400),
    Math.floor((seconds % 86_400) / 3600),
    Math.floor((seconds % 3600) / 60),
  ];
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m ${seconds % 60}s` : `${seconds}s`;
}

/** Text cut to `width` columns with an ellipsis (data here is one line already: the renderer cleans it). */
const cut = (text: string, width: number) =>
  text.length <= width ? text : `${text.slice(0, Math.max(1, width - 1))}…`;

/** A row of label, count and naira, the figures right-aligned under their headings; money is never cut. */
const row = (label: string, count: number | string, amount: Kobo | '') =>
  `${label.padEnd(36)}${String(count).padStart(6)}  ${(amount === '' ? '' : naira(amount)).padStart(18)}`;

function lines(r: Report, fmt: Formatter): string[] {
  const heading = (label: string) => fmt.dim(`${label.padEnd(36)}${'count'.padStart(6)}  ${'amount'.padStart(18)}`);
  const out: string[] = [];
  const [since, until] = [lagos(r.since), lagos(r.until)];
  const sameDay = since.slice(0, 10) === until.slice(0, 10);
  out.push(fmt.bold(`Report ${since} → ${sameDay ? until.slice(11) : until} Lagos time (UTC+1)`), '');
  out.push(heading('Transactions'));
  if (r.transactions.length === 0) out.push('  none');
  for (const t of r.transactions) out.push(row(`  ${t.type.padEnd(10)}${t.status}`, t.count, t.amount));
  const o = r.money_out;
  out.push(row('Money in    inbound credits', r.money_in.count, r.money_in.amount));
  out.push(row('Money out   payouts settled', o.settled.count, o.settled.amount));
  if (o.pending.count > 0) out.push(row('            payouts pending', o.pending.count, o.pending.amount));
  if (o.failed.count > 0) out.push(row('            payouts failed, reversed', o.failed.count, o.failed.amount));
  out.push(row('            NIP fees', '', o.fees));
  out.push(fmt.bold(row('Net         in − payouts', '', r.net)), '');

  out.push(heading('Suspense'));
  if (r.suspense.items.length === 0) out.push('  none');
  for (const s of r.suspense.items)
    out.push(row(`  ${s.status.padEnd(10)}${s.reason}`, s.count, s.amount).replace(s.status, fmt.status(s.status)));
  const oldest = r.suspense.oldest_waiting;
  if (oldest) out.push(`  Oldest waiting ${waited(oldest.age_seconds)}: ${oldest.id} (${oldest.reason})`);
  out.push('');

  const deliveries = r.webhooks.deliveries.map((d) => `${fmt.status(d.status)} ${d.count}`).join(' · ');
  out.push(`${'Webhooks'.padEnd(12)}${deliveries || 'no deliveries'}`);
  for (const e of r.webhooks.failing_endpoints) {
    const width = fmt.width;
    const error = e.last_error;
    const said =
      error.http_status_code === null
        ? (error.error ?? 'no answer')
        : `HTTP ${error.http_status_code}${error.response_body ? ` ${error.response_body}` : ''}`;
    out.push(`  ${fmt.red('Failing')} ${cut(e.url, width - 10)}`);
    out.push(
      `    ${fmt.plural(e.failed_attempts, 'failed attempt')}, ${e.failing_deliveries} still failing; last ${lagos(error.at).slice(11)}:`,
    );
    out.push(`    ${cut(said, width - 4)}`);
  }
  return out;
}

export const reportView: View = { kind: 'custom', lines, quiet: (r: Report) => String(r.net) };

export function reportCommand(): Command {
  return clientCommand('report')
    .option(
      '--since <when>',
      'start of the period: today, yesterday, an ISO date or date-time (default: today, 00:00 in Lagos)',
    )
    .option('--until <when>', 'end of the period, not included: as --since (default: now)')
    .addHelpText(
      'after',
      examples(
        'ledger report',
        'ledger report --since yesterday --until today',
        'ledger report --since 2026-11-01 --until 2026-12-01 --json',
      ),
    )
    .action(action(runReport));
}

export async function runReport(io: Io, options: { since?: string; until?: string }): Promise<void> {
  const client = io.client();
  // The report is the sandbox's one query per section; the seed's lists cannot give its transactions section (they are
  // per wallet, with no wallet list), so a service without it is refused, before the clock is asked.
  if (!(await offers(io, 'GET', '/sandbox/report'))) {
    const { unsupported } = await import('../cli/unsupported.js');
    throw unsupported(
      io,
      'has no report (GET /sandbox/report)',
      'the lists give each part: `ledger suspense list --all`, `ledger webhooks list --all`, `ledger transactions list <wallet_id> --all`',
    );
  }
  const query = await periodQuery(io, options);
  await io.show(await client.sandbox('GET', '/sandbox/report', { query }), reportView);
}
