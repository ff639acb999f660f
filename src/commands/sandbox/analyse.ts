import type { Command } from '../../cli/command.js';
import { UsageError } from '../../client/errors.js';
import { check, kobo } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';

export interface AnalyseOptions {
  prompt?: string;
  wallet?: string;
  amount?: string;
  senderName?: string;
}

interface Preview {
  service_intelligence: {
    extracted_intent: string;
    suggested_label: string;
    confidence_score: number;
    flags: string[];
    explanation: string[];
  };
  outcome: 'CREDITED' | 'SUSPENDED';
  suspense_reason: string | null;
  suspense_status: string | null;
  analyser: string;
}

const previewView: View = {
  kind: 'custom',
  quiet: (p: Preview) => p.suspense_reason ?? p.outcome,
  lines: (p: Preview, fmt) => {
    const ai = p.service_intelligence;
    const row = (label: string, value: string) => `${fmt.dim(label.padEnd(10))}  ${value}`;
    return [
      row('Intent', `${ai.extracted_intent} (${ai.suggested_label})`),
      row('Confidence', String(ai.confidence_score)),
      row('Flags', ai.flags.length ? ai.flags.join(', ') : fmt.dim('—')),
      row(
        'Would be',
        p.outcome === 'CREDITED'
          ? fmt.green('CREDITED')
          : `${fmt.yellow('SUSPENDED')}: ${p.suspense_reason} (${p.suspense_status})`,
      ),
      row('Analyser', p.analyser),
      fmt.dim('Why:'),
      ...ai.explanation.map((line) => `  · ${line}`),
    ];
  },
};

export function analyseCommand(): Command {
  return sandboxCommand('analyse')
    .argument('<narration>', 'the narration, in quotes ("" for an empty one)')
    .option('--prompt <system_prompt>', "a wallet's system_prompt to read it against (default: none)")
    .option('--wallet <wallet_id>', "read it against this wallet's own system_prompt and status instead")
    .option('--amount <kobo>', 'the amount in kobo, for prompts that set limits (default 100000)')
    .option('--sender-name <name>', 'the sender (default SANDBOX SENDER)')
    .addHelpText(
      'after',
      examples(
        'ledger sandbox analyse "NIP/GTB/ADA OBI/sch fees JSS2"',
        'ledger sandbox analyse "loan repayment 2 of 5" --prompt "Hold loan repayments for manual review."',
        'ledger sandbox analyse "rent" --wallet "$WALLET" --amount 300000000 --json',
        'ledger sandbox analyse "asdfgh" --quiet          # AI_LOW_CONFIDENCE',
      ),
    )
    .action(action(runAnalyse));
}

export async function runAnalyse(io: Io, narration: string, options: AnalyseOptions): Promise<void> {
  // The API refuses both together too (400 on system_prompt); said here, nothing is sent.
  if (options.prompt !== undefined && options.wallet !== undefined)
    throw new UsageError('give --prompt or --wallet, not both');
  const body = check(
    'AnalyseBody',
    {
      narration,
      system_prompt: options.prompt,
      wallet_id: options.wallet,
      amount: options.amount === undefined ? undefined : kobo(options.amount, '--amount', 'AnalyseBody', 'amount'),
      sender_name: options.senderName,
    },
    {
      narration: '<narration>',
      system_prompt: '--prompt',
      wallet_id: '--wallet',
      amount: '--amount',
      sender_name: '--sender-name',
    },
  );
  await io.show(await io.client().sandbox<Preview>('POST', '/sandbox/analyse', { body }), previewView);
}
