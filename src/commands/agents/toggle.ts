import type { Command } from '../../cli/command.js';
import type { Agent } from '../../api/schemas/agents.js';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { agentView } from '../../cli/output/views.js';

export function toggleCommand(): Command {
  return clientCommand('toggle')
    .argument('<wallet_id>', 'the wallet the agent is on')
    .argument('<agent_id>', 'agent id')
    .option('--on', 'enable')
    .option('--off', 'disable')
    .addHelpText(
      'after',
      examples('ledger agents toggle "$W" "$AGENT" --off', 'ledger agents toggle "$W" "$AGENT" --on'),
    )
    .action(action(runToggle));
}

export async function runToggle(
  io: Io,
  walletId: string,
  agentId: string,
  options: { on?: boolean; off?: boolean },
): Promise<void> {
  if (Boolean(options.on) === Boolean(options.off)) throw new UsageError('say --on or --off');
  if (io.asksLive())
    await (await import('../../cli/live-questions.js')).confirmLiveToggle(io, walletId, agentId, Boolean(options.on));
  const agent = await io
    .client()
    .request<Agent>(
      'PATCH',
      `/v1/wallets/${encodeURIComponent(walletId)}/agents/${encodeURIComponent(agentId)}/toggle`,
      {
        body: { is_active: Boolean(options.on) },
      },
    );
  await io.show(agent, agentView);
}
