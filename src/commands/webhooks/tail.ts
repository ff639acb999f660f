import type { Command } from '../../cli/command.js';
import { WEBHOOK_STREAM_PATH, type WebhookAttemptEvent } from '../../api/schemas/webhook-stream.js';
import { UnreachableError } from '../../client/errors.js';
import { followInterval, untilStopped } from '../../cli/follow.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { offers } from '../../cli/remote.js';

export function tailCommand(): Command {
  return clientCommand('tail')
    .option(
      '--interval <seconds>',
      'against a service without a stream of attempts: seconds between reads of its webhook logs',
      '2',
    )
    .addHelpText(
      'after',
      examples('ledger webhooks tail', 'ledger webhooks tail --json | jq -c "{event_type, status, attempt_count}"') +
        '\nEach line: time of the attempt (sandbox clock), event, wallet (the end of its id: ' +
        'ids made in the same minute begin alike; ' +
        '--wide shows it whole), amount, status, attempt number and HTTP status; ' +
        'on a narrow terminal the time without its date, then without the wallet.\n',
    )
    .action(action(runTail));
}

/** The wallet and amount an event is about, when its data names them. */
function subject(log: WebhookAttemptEvent['log']): { wallet?: string; amount?: number } {
  const data = (log.payload as { data?: { wallet_id?: unknown; amount?: unknown } }).data ?? {};
  return {
    ...(typeof data.wallet_id === 'string' ? { wallet: data.wallet_id } : {}),
    ...(typeof data.amount === 'number' ? { amount: data.amount } : {}),
  };
}

/**
 * Follows the sandbox's stream of delivery attempts until Ctrl-C: a line per attempt for people, or
 * the delivery log as it stood after the attempt, one JSON object per line, with --json. Attempts made
 * before it started are not replayed.
 */
export async function runTail(io: Io, options: { signal?: AbortSignal; interval?: string } = {}): Promise<void> {
  const client = io.client();
  const interval = followInterval(options.interval, '2');
  const streamed = await offers(io, 'GET', WEBHOOK_STREAM_PATH);
  const { formatter } = await import('../../cli/output/render.js');
  const { clean } = await import('../../text/clean.js');
  const fmt = formatter(io.stdout, io.env);
  const { signal, release } = untilStopped(options.signal);
  // A line per attempt, as wide as its widest values (time 19, event 18, wallet 8, amount 20, status 9,
  // attempt 2 or 3, answer up to 12, and the gaps); on a narrower terminal the time keeps only the hour,
  // then the wallet goes, so that a line never wraps (--wide keeps everything).
  const walletWidth = io.flags.wide ? 36 : 8;
  const room = io.flags.wide ? Infinity : fmt.width;
  const shortTime = room < 19 + 18 + walletWidth + 20 + 9 + 3 + 12 + 12;
  const noWallet = room < 8 + 18 + walletWidth + 20 + 9 + 3 + 12 + 12;
  const print = ({ log, attempt }: WebhookAttemptEvent) => {
    if (io.flags.json) return io.stdout.write(`${JSON.stringify(log)}\n`);
    if (io.flags.quiet) return io.stdout.write(`${log.id}\n`);
    const { wallet, amount } = subject(log);
    const when = attempt.created_at.replace('T', ' ').replace(/\.\d+Z$/, '');
    const answer =
      attempt.http_status_code !== null
        ? `HTTP ${attempt.http_status_code}`
        : fmt.red(clean(attempt.error ?? 'no answer'));
    return io.stdout.write(
      [
        shortTime ? when.slice(11) : when,
        clean(log.event_type).padEnd(18),
        // The end of the id: its start is the time it was made (UUIDv7), the same for a minute's wallets.
        ...(noWallet ? [] : [(wallet ? (io.flags.wide ? wallet : `…${wallet.slice(-7)}`) : '—').padEnd(walletWidth)]),
        (amount !== undefined ? fmt.money(amount) : '—').padEnd(20),
        fmt.status(log.status) + ' '.repeat(Math.max(0, 9 - log.status.length)),
        `#${attempt.attempt_number}`,
        answer,
      ].join('  ') + '\n',
    );
  };
  try {
    if (!streamed) {
      await (await import('./tail-poll.js')).pollAttempts(io, print, signal, interval);
      return;
    }
    await client.stream(
      WEBHOOK_STREAM_PATH,
      {
        onOpen: () => io.stderr.write('Following webhook delivery attempts; Ctrl-C to stop.\n'),
        onEvent: (event) => {
          if (event.event === 'attempt') print(JSON.parse(event.data) as WebhookAttemptEvent);
        },
      },
      signal,
    );
    if (!signal.aborted)
      throw new UnreachableError(`the sandbox at ${client.baseUrl} closed the stream: has it stopped?`);
  } finally {
    release();
  }
}
