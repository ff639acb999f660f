import type { Command } from '../command.js';
import { check } from '../../client/validate.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { credentialView } from '../output/views.js';

/** A creation whose answer never came back may have made the developer, whose key only that answer held. */
const BEFORE_REPEATING = 'if it made the developer, its key was in the answer that was lost, and the sandbox never shows a key again: repeat it to make another';

export function developersCreateCommand(): Command {
  return clientCommand('create')
    .argument('<business_name>', "business name, used in its wallets' account names")
    .addHelpText('after', examples('ledger sandbox developers create "Acme Pay"', 'OTHER_KEY=$(ledger sandbox developers create "Acme Pay" --quiet)'))
    .action(
      action(async (io: Io, businessName: string) => {
        const body = check('DeveloperBody', { business_name: businessName }, { business_name: '<business_name>' });
        await io.show(await io.client().sandbox('POST', '/sandbox/developers', { body, beforeRepeating: BEFORE_REPEATING }), credentialView);
      }),
    );
}
