import type { Instruction, InstructionRule as Rule } from '../../api/schemas/sandbox.js';
import type { Command } from '../../cli/command.js';
import { UsageError } from '../../client/errors.js';
import { check, kobo } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import type { Formatter, View } from '../../cli/output/views.js';

export interface AnalyseOptions {
  prompt?: string;
  wallet?: string;
  amount?: string;
  senderName?: string;
}

interface Preview {
  instruction: Instruction;
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

/** One rule as a line: what it does, to what, and the words it was read from. */
function ruleLine(rule: Rule, fmt: Formatter): string {
  const about = [
    rule.amount === undefined ? '' : `${rule.kind === 'hold_below' ? 'below' : 'above'} ${fmt.money(rule.amount)}`,
    rule.inclusive ? 'inclusive' : '',
    rule.purposes?.join(', ') ?? '',
    rule.purposes || !rule.words ? '' : rule.words.slice(0, 6).join(', ') + (rule.words.length > 6 ? ', …' : ''),
    rule.senders?.join(', ') ?? '',
    rule.pattern ?? '',
    rule.only ? 'only' : '',
  ].filter(Boolean);
  return `${rule.kind} (${rule.action})${about.length ? `: ${about.join('; ')}` : ''}  "${rule.text}"`;
}

/** The "Rules" lines: each rule the prompt was read into, then what was not understood (which holds nothing). */
function instructionLines(instruction: Instruction, fmt: Formatter): string[] {
  return [
    fmt.dim('Rules:'),
    ...(instruction.rules.length
      ? instruction.rules.map((rule) => `  · ${ruleLine(rule, fmt)}`)
      : [`  ${fmt.dim('—')}`]),
    ...instruction.not_understood.map((text) => `  ${fmt.yellow('?')} not understood, holds nothing: "${text}"`),
  ];
}

const instructionView: View = {
  kind: 'custom',
  quiet: (i: Instruction) => i.rules.map((rule) => rule.kind).join('\n'),
  lines: (i: Instruction, fmt) => instructionLines(i, fmt),
};

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
      ...(p.instruction.rules.length || p.instruction.not_understood.length
        ? instructionLines(p.instruction, fmt)
        : []),
      fmt.dim('Why:'),
      ...ai.explanation.map((line) => `  · ${line}`),
    ];
  },
};

export function analyseCommand(): Command {
  return sandboxCommand('analyse')
    .argument(
      '[narration]',
      'the narration, in quotes ("" for an empty one); without it, only the rules of --prompt or --wallet',
    )
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
        'ledger sandbox analyse --prompt "Max ₦30 per payment, hold anything more"   # only the rules it reads',
        'ledger sandbox analyse --wallet "$WALLET" --json   # {"rules": [...], "not_understood": [...]}',
      ),
    )
    .addHelpText(
      'after',
      '\nWithout a narration it prints the rules a prompt is read into (POST /sandbox/instruction): each rule ' +
        'and the words it came from, and each sentence not understood, which holds nothing. ' +
        "--json prints the API's data; --quiet the rules' kinds, one a line.",
    )
    .action(action(runAnalyse));
}

export async function runAnalyse(io: Io, narration: string | undefined, options: AnalyseOptions): Promise<void> {
  // The API refuses both together too (400 on system_prompt); said here, nothing is sent.
  if (options.prompt !== undefined && options.wallet !== undefined)
    throw new UsageError('give --prompt or --wallet, not both');
  if (narration === undefined) {
    if (options.prompt === undefined && options.wallet === undefined)
      throw new UsageError('give a <narration>, or --prompt or --wallet to see the rules it is read into');
    const body = check(
      'AnalyseBody',
      { system_prompt: options.prompt, wallet_id: options.wallet },
      { system_prompt: '--prompt', wallet_id: '--wallet' },
      { partial: true },
    );
    await io.show(await io.client().sandbox<Instruction>('POST', '/sandbox/instruction', { body }), instructionView);
    return;
  }
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
