import type { Command } from '../../cli/command.js';
import { readState, writeState } from '../../client/state.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import { credentialView } from '../../cli/output/views.js';

/**
 * A rotation whose answer never came back has most likely happened: the old key is refused, and the
 * new one was in the answer that was lost. A repeat with the old key is refused too; a restart issues
 * the SANDBOX developer a working key (ensureSandboxDeveloper).
 */
const BEFORE_REPEATING =
  'if `ledger sandbox keys` now answers UNAUTHORIZED, ' +
  'the key was rotated and the new one was lost with the answer: ' +
  '`ledger sandbox stop`, then `ledger sandbox start --detach`, issues the SANDBOX developer a new key';

export function rotateCommand(): Command {
  return sandboxCommand('rotate')
    .addHelpText(
      'after',
      examples('ledger sandbox keys rotate', 'export LEDGER_API_KEY=$(ledger sandbox keys rotate --quiet)'),
    )
    .action(action(runRotate));
}

export async function runRotate(io: Io): Promise<void> {
  const config = io.config();
  const rotated = await io
    .client()
    .sandbox<{ developer_id: string; api_key: string; created_at: string }>('POST', '/sandbox/keys/rotate', {
      beforeRepeating: BEFORE_REPEATING,
    });
  const state = config.keySource === 'state' && config.stateFile ? readState(config.stateFile) : undefined;
  if (config.stateFile && state) {
    writeState(config.stateFile, { ...state, api_key: rotated.api_key });
    io.note(`Saved the new key in ${config.stateFile}.`);
  } else {
    io.note('The old key no longer works: update LEDGER_API_KEY.');
  }
  await io.show(rotated, credentialView);
}
