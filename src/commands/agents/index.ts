import { Command } from 'commander';
import type { Agent } from '../../api/schemas/agents.js';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples, parseAmount } from '../options.js';
import { agentListView, agentRunsView, agentView } from '../output/views.js';
import { pageQuery, type PageFlags, withPaging } from '../paging.js';
import { chooseWallet } from '../accounts.js';
import { choose, requireValue } from '../prompts.js';

const TRIGGERS = {
  BALANCE_ABOVE: { threshold: true, text: 'the balance rises above a threshold' },
  BALANCE_BELOW: { threshold: true, text: 'the balance falls below a threshold' },
  ON_CREDIT: { threshold: false, text: 'every credit' },
  ON_CREDIT_AMOUNT_ABOVE: { threshold: true, text: 'a credit larger than a threshold' },
} as const;
const ACTIONS = {
  SWEEP: { destination: true, sweepAmount: false, text: 'move the whole balance to another wallet' },
  PARTIAL_SWEEP: { destination: true, sweepAmount: true, text: 'move a fixed amount to another wallet' },
  WEBHOOK_NOTIFY: { destination: false, sweepAmount: false, text: 'send an agent.triggered webhook' },
  LOCK_WALLET: { destination: false, sweepAmount: false, text: 'set allow_transfers_out to false' },
} as const;
type Trigger = keyof typeof TRIGGERS;
type Action = keyof typeof ACTIONS;

export interface CreateAgentOptions {
  name?: string;
  trigger?: string;
  threshold?: string;
  action?: string;
  destination?: string;
  sweepAmount?: string;
  idempotencyKey?: string;
}

export function agentsCommand(): Command {
  return new Command('agents')
    .description('Trigger-action rules on wallets: sweeps, locks and notifications')
    .addCommand(
      clientCommand('create')
        .description('Attach an agent to a wallet; on a terminal, missing choices are asked, and only the fields they need')
        .argument('<wallet_id>', 'the wallet the agent watches')
        .option('--name <name>', 'a name for people')
        .option('--trigger <trigger>', Object.keys(TRIGGERS).join(', '))
        .option('--threshold <kobo>', 'for BALANCE_ABOVE, BALANCE_BELOW and ON_CREDIT_AMOUNT_ABOVE')
        .option('--action <action>', Object.keys(ACTIONS).join(', '))
        .option('--destination <wallet_id>', 'for SWEEP and PARTIAL_SWEEP: another of your wallets')
        .option('--sweep-amount <kobo>', 'for PARTIAL_SWEEP')
        .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
        .addHelpText(
          'after',
          examples(
            'ledger agents create "$W" --name "To savings" --trigger BALANCE_ABOVE --threshold 1000000 --action SWEEP --destination "$SAVINGS"',
            'ledger agents create "$W" --name "Big credit lock" --trigger ON_CREDIT_AMOUNT_ABOVE --threshold 5000000 --action LOCK_WALLET',
            'ledger agents create "$W"        # on a terminal: asks for the rest',
          ),
        )
        .action(action(runCreate)),
    )
    .addCommand(
      clientCommand('toggle')
        .description('Enable (--on) or disable (--off) an agent')
        .argument('<wallet_id>', 'the wallet the agent is on')
        .argument('<agent_id>', 'agent id')
        .option('--on', 'enable')
        .option('--off', 'disable')
        .addHelpText('after', examples('ledger agents toggle "$W" "$AGENT" --off', 'ledger agents toggle "$W" "$AGENT" --on'))
        .action(action(runToggle)),
    )
    .addCommand(
      withPaging(clientCommand('list'))
        .description('List agents, across wallets or on one')
        .option('--wallet <wallet_id>', 'only the agents on this wallet')
        .addHelpText('after', examples('ledger agents list', 'ledger agents list --wallet "$W" --json'))
        .action(action(runList)),
    )
    .addCommand(
      withPaging(clientCommand('runs'))
        .description('The trace of an agent: each firing, why, what it did, and the transaction or error')
        .argument('<agent_id>', 'agent id')
        .addHelpText('after', examples('ledger agents runs "$AGENT"', 'ledger agents runs "$AGENT" --json'))
        .action(action(runRuns)),
    )
    .addHelpText('after', examples('ledger agents create "$W"', 'ledger agents list --wallet "$W"', 'ledger agents runs "$AGENT"'));
}

function pick<T extends string>(value: string | undefined, allowed: Record<T, unknown>, flag: string): T | undefined {
  if (value === undefined) return undefined;
  const upper = value.toUpperCase();
  if (!(upper in allowed)) throw new UsageError(`${flag} must be one of ${Object.keys(allowed).join(', ')}`);
  return upper as T;
}


export async function runCreate(io: Io, walletId: string, options: CreateAgentOptions): Promise<void> {
  const name = await requireValue(io, options.name, '--name', 'Agent name');
  const trigger =
    pick<Trigger>(options.trigger, TRIGGERS, '--trigger') ??
    (await choose<Trigger>(io, '--trigger', 'Fire on…', Object.entries(TRIGGERS).map(([value, t]) => ({ name: `${value.padEnd(23)} ${t.text}`, value: value as Trigger }))));
  const act =
    pick<Action>(options.action, ACTIONS, '--action') ??
    (await choose<Action>(io, '--action', 'And then…', Object.entries(ACTIONS).map(([value, a]) => ({ name: `${value.padEnd(15)} ${a.text}`, value: value as Action }))));
  const body: Record<string, unknown> = { name, trigger, action: act };
  if (TRIGGERS[trigger].threshold) body.threshold = parseAmount(await requireValue(io, options.threshold, '--threshold', 'Threshold in kobo'));
  else if (options.threshold !== undefined) throw new UsageError(`--threshold is not used by ${trigger}`);
  if (ACTIONS[act].destination) body.destination_wallet_id = options.destination ?? (await chooseWallet(io, '--destination', 'Sweep into which wallet? (type to search)', { exclude: walletId, none: 'no other ACTIVE wallet to sweep into' }));
  else if (options.destination !== undefined) throw new UsageError(`--destination is not used by ${act}`);
  if (ACTIONS[act].sweepAmount) body.sweep_amount = parseAmount(await requireValue(io, options.sweepAmount, '--sweep-amount', 'Amount to sweep, in kobo'));
  else if (options.sweepAmount !== undefined) throw new UsageError(`--sweep-amount is not used by ${act}`);
  const agent = await io.client().request<Agent>('POST', `/v1/wallets/${encodeURIComponent(walletId)}/agents`, { body, idempotencyKey: options.idempotencyKey });
  await io.show(agent, agentView);
}

export async function runToggle(io: Io, walletId: string, agentId: string, options: { on?: boolean; off?: boolean }): Promise<void> {
  if (Boolean(options.on) === Boolean(options.off)) throw new UsageError('say --on or --off');
  const agent = await io.client().request<Agent>('PATCH', `/v1/wallets/${encodeURIComponent(walletId)}/agents/${encodeURIComponent(agentId)}/toggle`, {
    body: { is_active: Boolean(options.on) },
  });
  await io.show(agent, agentView);
}

export async function runList(io: Io, options: PageFlags & { wallet?: string }): Promise<void> {
  await io.show(await io.client().request('GET', '/v1/agents', { query: { ...pageQuery(options), wallet_id: options.wallet } }), agentListView);
}

export async function runRuns(io: Io, agentId: string, options: PageFlags): Promise<void> {
  await io.show(await io.client().sandbox('GET', `/sandbox/agents/${encodeURIComponent(agentId)}/runs`, { query: pageQuery(options) }), agentRunsView);
}
