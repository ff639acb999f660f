import type { Command } from '../cli/command.js';
import type { ResolvedAccount } from '../api/schemas/banks.js';
import type { TransferResult } from '../api/schemas/transactions.js';
import type { Wallet } from '../api/schemas/wallets.js';
import { UsageError } from '../client/errors.js';
import { check, inFlagTerms, kobo } from '../client/validate.js';
import type { Io } from '../cli/io.js';
import { accountNumberOf, notYourWallet } from '../cli/account-number.js';
import { action, clientCommand, examples } from '../cli/options.js';
import { transferView } from '../cli/output/views.js';

export interface TransferOptions {
  bank?: string;
  name?: string;
  narration?: string;
  idempotencyKey?: string;
  yes?: boolean;
}

const FLAGS = {
  destination_account_number: '<to>',
  destination_bank_code: '--bank',
  destination_account_name: '--name',
  amount: '<amount>',
  narration: '--narration',
};

/** A transfer cut off without a key (see the client's cutOff): where the money that moved shows, and the flag that makes a repeat safe. */
const BEFORE_REPEATING =
  'look before you repeat it (`ledger transactions list <wallet>` shows the money that moved); a transfer repeated with --idempotency-key is never made twice';

export function transferCommand(): Command {
  return clientCommand('transfer')
    .argument('<from_wallet_id>', 'source wallet id')
    .argument('<to>', 'destination account number, or one of your wallet ids')
    .argument('<amount>', 'kobo (500000 is ₦5,000.00)')
    .option('--bank <code>', 'destination bank code (needed for an account that is not one of your wallets)')
    .option('--name <account_name>', 'destination account name, as you expect it')
    .option('--narration <text>', 'narration, at most 100 characters')
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger transfer "$FROM" "$TO_WALLET" 150000',
        'ledger transfer "$FROM" 0123456785 150000 --bank 058 --narration "May rent" --idempotency-key rent-may',
        'ledger transfer "$FROM" 1111111111 50000 --bank 044 --yes   # a payout that fails and is reversed',
      ) +
        '\nNIP fee of a payout: ₦10.00 up to ₦5,000.00, ₦25.00 up to ₦50,000.00, ₦50.00 above; none between your own wallets.\n',
    )
    .action(action(runTransfer));
}

export async function runTransfer(
  io: Io,
  from: string,
  to: string,
  amount: string,
  options: TransferOptions,
): Promise<void> {
  check(
    'IdempotencyHeaders',
    { 'idempotency-key': options.idempotencyKey },
    { 'idempotency-key': '--idempotency-key' },
  );
  const given = {
    amount: kobo(amount, '<amount>'),
    destination_bank_code: options.bank,
    destination_account_name: options.name,
    narration: options.narration,
  };
  check('TransferBody', given, FLAGS, { partial: true });
  const body = check(
    'TransferBody',
    { destination_account_number: await accountNumberOf(io, to, '<to>'), ...given },
    FLAGS,
  );
  if (body.destination_bank_code !== undefined && io.interactive() && !options.yes)
    await confirmPayout(io, from, body.destination_account_number, body.destination_bank_code, body.amount);
  else if (body.destination_bank_code === undefined && io.asksLive())
    await (
      await import('../cli/live-questions.js')
    ).confirmLiveTransfer(io, from, body.destination_account_number, body.amount);
  // The destination is known by now, so a wallet the API does not find is the source; a field it
  // refuses is named by its flag.
  const send = () =>
    io
      .client()
      .request<TransferResult>('POST', `/v1/wallets/${encodeURIComponent(from)}/transfer`, {
        body,
        idempotencyKey: options.idempotencyKey,
        beforeRepeating: BEFORE_REPEATING,
      })
      .catch((error: unknown) => {
        throw inFlagTerms(notYourWallet(error, from, '<from_wallet_id>'), FLAGS);
      });
  // A payout's own modules (the fee, the prompt, the not-found explanation) load only for a payout: an
  // internal transfer, the common call in a script, loads three modules fewer before its requests.
  const result =
    body.destination_bank_code === undefined
      ? await send()
      : await (
          await import('./banks/explain.js')
        ).explainNotFound(body.destination_account_number, body.destination_bank_code, send);
  await io.show(result, transferView);
}

/** On a terminal, a payout to a bank account shows who it will reach and what it costs, and asks first. */
async function confirmPayout(
  io: Io,
  from: string,
  accountNumber: string,
  bankCode: string,
  amount: number,
): Promise<void> {
  const [{ explainNotFound }, { nipFee }, { confirm }] = await Promise.all([
    import('./banks/explain.js'),
    import('../engine/fees.js'),
    import('../cli/prompts.js'),
  ]);
  const resolved = await explainNotFound(accountNumber, bankCode, () =>
    io.client().request<ResolvedAccount>('POST', '/v1/banks/resolve', {
      body: { account_number: accountNumber, bank_code: bankCode },
    }),
  );
  const fee = nipFee(amount);
  // On a live service the person types the amount after reading whose money it is.
  const source = io.asksLive()
    ? await io.client().request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(from)}`)
    : undefined;
  const { formatter } = await import('../cli/output/render.js');
  const { clean } = await import('../text/clean.js');
  const fmt = formatter(io.stderr, io.env);
  io.announceTarget();
  io.stderr.write(
    [
      ...(source
        ? fmt.wrap(
            `From    ${fmt.bold(clean(`${source.first_name} ${source.last_name}`))} · ${source.account_number}`,
            8,
          )
        : []),
      // A long name and a long bank name ("9PSB (9mobile Payment Service Bank)") pass 80 columns.
      ...fmt.wrap(`To      ${fmt.bold(clean(resolved.account_name))} · ${accountNumber} · ${fmt.bank(bankCode)}`, 8),
      `Amount  ${fmt.money(amount)}`,
      `Fee     ${fmt.money(fee)}${bankCode === '035' ? fmt.dim(' (none if it is one of your own wallets)') : ''}`,
      `Total   ${fmt.money(amount + fee)}`,
      '',
    ].join('\n'),
  );
  const question = source
    ? `Send ${(await import('../text/format.js')).naira(amount)} from ${source.first_name} ${source.last_name} to ${accountNumber} at ${fmt.bank(bankCode)}?`
    : 'Send this transfer?';
  if (!(await confirm(io, question, false, { expected: String(amount), named: 'the amount in kobo' })))
    throw new UsageError('transfer cancelled: nothing was sent');
}
