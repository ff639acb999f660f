import type { Command } from '../../cli/command.js';
import type { RequestLogEntry } from '../../api/schemas/requests.js';
import type { Io } from '../../cli/io.js';
import { action, examples, sandboxCommand } from '../../cli/options.js';
import { requestLogView } from '../../cli/output/views.js';

export function showCommand(): Command {
  return sandboxCommand('show')
    .argument('<request_id>', 'a request id (req_…), as an error line or the request-id header gives it')
    .addHelpText('after', examples('ledger logs show req_00000042', 'ledger logs show req_00000042 --json'))
    .action(action(runShow));
}

export async function runShow(io: Io, id: string): Promise<void> {
  const entry = await io.client().sandbox<RequestLogEntry>('GET', `/sandbox/requests/${encodeURIComponent(id.trim())}`);
  await io.show(entry, requestLogView);
}
