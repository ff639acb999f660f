import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import { credentialView } from '../../cli/output/views.js';

interface KeyInfo {
  developer_id: string;
  business_name: string;
  key_hint: string;
  key_created_at: string;
}

export function keysCommand(): Command {
  return sandboxCommand('keys')
    .addHelpText('after', examples('ledger sandbox keys', 'ledger sandbox keys rotate'))
    .action(action(runKeys));
}

export async function runKeys(io: Io): Promise<void> {
  const info = await io.client().sandbox<KeyInfo>('GET', '/sandbox/keys');
  await io.show(
    { ...info, api_key: io.config().apiKey ?? null },
    {
      ...credentialView,
      fields: credentialView.fields.map((f) => (f.key === 'created_at' ? { ...f, key: 'key_created_at' } : f)),
    },
  );
}
