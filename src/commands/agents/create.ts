import type { Command } from '../../cli/command.js';
import type { Agent } from '../../api/schemas/agents.js';
import { check, choicesOf, condition, kobo, koboCheck, refuseUnused, textCheck } from '../../client/validate.js';
import { chooseWallet } from '../../cli/wallet-picker.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, enumOption, examples } from '../../cli/options.js';
import { agentView } from '../../cli/output/views.js';
import { choose, requireValue } from '../../cli/prompts.js';

/** What each trigger and action means, for the questions; which fields they need comes from the schema's rules. */
const TRIGGER_TEXT: Record<string, string> = {
  BALANCE_ABOVE: 'the balance rises above a threshold',
  BALANCE_BELOW: 'the balance falls below a threshold',
  ON_CREDIT: 'every credit',
  ON_CREDIT_AMOUNT_ABOVE: 'a credit larger than a threshold',
};
const ACTION_TEXT: Record<string, string> = {
  SWEEP: 'move the whole balance to another wallet',
  PARTIAL_SWEEP: 'move a fixed amount to another wallet',
  WEBHOOK_NOTIFY: 'send an agent.triggered webhook',
  LOCK_WALLET: 'set allow_transfers_out to false',
};
const TRIGGERS = choicesOf('CreateAgentBody', 'trigger');
const ACTIONS = choicesOf('CreateAgentBody', 'action');

export interface CreateAgentOptions {
  name?: string;
  trigger?: string;
  threshold?: string;
  action?: string;
  destination?: string;
  sweepAmount?: string;
  idempotencyKey?: string;
}

const FLAGS = {
  name: '--name',
  trigger: '--trigger',
  threshold: '--threshold',
  action: '--action',
  destination_wallet_id: '--destination',
  sweep_amount: '--sweep-amount',
};

export function createCommand(): Command {
  return clientCommand('create')
    .argument('<wallet_id>', 'the wallet the agent watches')
    .option('--name <name>', 'a name for people')
    .addOption(enumOption('--trigger <trigger>', 'when it fires', TRIGGERS))
    .option('--threshold <kobo>', 'for BALANCE_ABOVE, BALANCE_BELOW and ON_CREDIT_AMOUNT_ABOVE')
    .addOption(enumOption('--action <action>', 'what it does', ACTIONS))
    .option('--destination <wallet_id>', 'for SWEEP and PARTIAL_SWEEP: another of your wallets')
    .option('--sweep-amount <kobo>', 'for PARTIAL_SWEEP')
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger agents create "$W" --name "To savings" --trigger BALANCE_ABOVE --threshold 1000000 --action SWEEP --destination "$SAVINGS"',
        'ledger agents create "$W" --name "Big credit lock" --trigger ON_CREDIT_AMOUNT_ABOVE --threshold 5000000 --action LOCK_WALLET',
        'ledger agents create "$W"        # on a terminal: asks for the rest',
      ) + '\nSWEEP moves the whole balance at the moment it fires; PARTIAL_SWEEP moves\n--sweep-amount.\n',
    )
    .action(action(runCreate));
}

export async function runCreate(io: Io, walletId: string, options: CreateAgentOptions): Promise<void> {
  check(
    'IdempotencyHeaders',
    { 'idempotency-key': options.idempotencyKey },
    { 'idempotency-key': '--idempotency-key' },
  );
  const given: Record<string, unknown> = {
    name: options.name,
    trigger: options.trigger?.toUpperCase(),
    action: options.action?.toUpperCase(),
    threshold:
      options.threshold === undefined
        ? undefined
        : kobo(options.threshold, '--threshold', 'CreateAgentBody', 'threshold'),
    destination_wallet_id: options.destination,
    sweep_amount:
      options.sweepAmount === undefined
        ? undefined
        : kobo(options.sweepAmount, '--sweep-amount', 'CreateAgentBody', 'sweep_amount'),
  };
  check('CreateAgentBody', given, FLAGS, { partial: true });
  const body: Record<string, unknown> = { ...given };
  body.name = await requireValue(io, options.name, '--name', 'Agent name', textCheck('CreateAgentBody', 'name'));
  body.trigger ??= await choose(
    io,
    '--trigger',
    'Fire on…',
    TRIGGERS.map((t) => ({ name: `${t.padEnd(23)} ${TRIGGER_TEXT[t] ?? ''}`, value: t, short: t })),
  );
  body.action ??= await choose(
    io,
    '--action',
    'And then…',
    ACTIONS.map((a) => ({ name: `${a.padEnd(15)} ${ACTION_TEXT[a] ?? ''}`, value: a, short: a })),
  );
  // A flag the chosen trigger or action does not use is refused before anything else is asked.
  refuseUnused('CreateAgentBody', body, FLAGS);
  if (condition('CreateAgentBody', 'threshold', body)?.required && body.threshold === undefined) {
    body.threshold = kobo(
      await requireValue(io, undefined, '--threshold', 'Threshold in kobo', koboCheck('CreateAgentBody', 'threshold')),
      '--threshold',
      'CreateAgentBody',
      'threshold',
    );
  }
  if (
    condition('CreateAgentBody', 'destination_wallet_id', body)?.required &&
    body.destination_wallet_id === undefined
  ) {
    body.destination_wallet_id = await chooseWallet(io, '--destination', 'Sweep into which wallet? (type to search)', {
      exclude: walletId,
      none: 'no other ACTIVE wallet to sweep into',
    });
  }
  if (condition('CreateAgentBody', 'sweep_amount', body)?.required && body.sweep_amount === undefined) {
    body.sweep_amount = kobo(
      await requireValue(
        io,
        undefined,
        '--sweep-amount',
        'Amount to sweep, in kobo',
        koboCheck('CreateAgentBody', 'sweep_amount'),
      ),
      '--sweep-amount',
      'CreateAgentBody',
      'sweep_amount',
    );
  }
  if (io.asksLive()) await (await import('../../cli/live-questions.js')).confirmLiveAgent(io, walletId, body);
  const agent = await io.client().request<Agent>('POST', `/v1/wallets/${encodeURIComponent(walletId)}/agents`, {
    body: check('CreateAgentBody', body, FLAGS),
    idempotencyKey: options.idempotencyKey,
  });
  await io.show(agent, agentView);
}
