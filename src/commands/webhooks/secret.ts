import type { Command } from '../../cli/command.js';
import type { WebhookEndpoint } from '../../api/schemas/webhooks.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';

const secretView: View = {
  kind: 'custom',
  quiet: (e: WebhookEndpoint) => e.secret,
  lines: (e: WebhookEndpoint) => [e.secret],
};

export function secretCommand(): Command {
  return clientCommand('secret')
    .addHelpText('after', examples('ledger webhooks secret', 'ledger webhooks secret rotate'))
    .action(
      action(async (io: Io) =>
        io.show(await io.client().sandbox<WebhookEndpoint>('GET', '/sandbox/webhook-endpoint'), secretView),
      ),
    );
}

export function rotateCommand(): Command {
  return clientCommand('rotate')
    .addHelpText('after', examples('ledger webhooks secret rotate --quiet'))
    .action(
      action(async (io: Io) =>
        io.show(
          await io.client().sandbox<WebhookEndpoint>('POST', '/sandbox/webhook-endpoint/rotate-secret'),
          secretView,
        ),
      ),
    );
}
