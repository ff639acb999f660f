import type { Command } from '../../cli/command.js';
import { check } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { endpointView } from '../../cli/output/views.js';

export function endpointCommand(): Command {
  return clientCommand('endpoint')
    .addHelpText(
      'after',
      examples(
        'ledger webhooks endpoint',
        'ledger webhooks endpoint set http://127.0.0.1:3000/hooks',
        'ledger webhooks endpoint reset',
      ),
    )
    .action(
      action(async (io: Io) => io.show(await io.client().sandbox('GET', '/sandbox/webhook-endpoint'), endpointView)),
    );
}

export function setCommand(): Command {
  return clientCommand('set')
    .argument('<url>', 'http or https URL')
    .addHelpText('after', examples('ledger webhooks endpoint set http://127.0.0.1:3000/hooks'))
    .action(
      action(async (io: Io, url: string) => {
        const body = check('PutEndpointBody', { url }, { url: '<url>' });
        await io.show(await io.client().sandbox('PUT', '/sandbox/webhook-endpoint', { body }), endpointView);
      }),
    );
}

export function resetCommand(): Command {
  return clientCommand('reset')
    .addHelpText('after', examples('ledger webhooks endpoint reset'))
    .action(
      action(async (io: Io) =>
        io.show(await io.client().sandbox('PUT', '/sandbox/webhook-endpoint', { body: { url: null } }), endpointView),
      ),
    );
}
