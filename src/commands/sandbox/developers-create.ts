import type { Command } from '../command.js';
import { check } from '../../client/validate.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { credentialView } from '../output/views.js';

export function developersCreateCommand(): Command {
  return clientCommand('create')
    .argument('<business_name>', "business name, used in its wallets' account names")
    .addHelpText('after', examples('ledger sandbox developers create "Acme Pay"', 'OTHER_KEY=$(ledger sandbox developers create "Acme Pay" --quiet)'))
    .action(
      action(async (io: Io, businessName: string) => {
        const body = check('DeveloperBody', { business_name: businessName }, { business_name: '<business_name>' });
        await io.show(await io.client().sandbox('POST', '/sandbox/developers', { body }), credentialView);
      }),
    );
}
