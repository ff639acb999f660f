import type { Command } from '../command.js';
import { readState, writeState } from '../../client/state.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { credentialView } from '../output/views.js';

export function rotateCommand(): Command {
  return clientCommand('rotate')
    .addHelpText('after', examples('ledger sandbox keys rotate', 'export LEDGER_API_KEY=$(ledger sandbox keys rotate --quiet)'))
    .action(action(runRotate));
}

export async function runRotate(io: Io): Promise<void> {
  const config = io.config();
  const rotated = await io.client().sandbox<{ developer_id: string; api_key: string; created_at: string }>('POST', '/sandbox/keys/rotate');
  const state = config.stateFile ? readState(config.stateFile) : undefined;
  if (config.stateFile && state && state.api_key === config.apiKey) {
    writeState(config.stateFile, { ...state, api_key: rotated.api_key });
    io.note(`Saved the new key in ${config.stateFile}.`);
  } else {
    io.note('The old key no longer works: update LEDGER_API_KEY.');
  }
  await io.show(rotated, credentialView);
}
