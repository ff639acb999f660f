import type { Command } from '../../cli/command.js';
import { UsageError } from '../../client/errors.js';
import type { AnalyserConfig } from '../../sandbox/analyser.js';

/** `sandbox start`'s analyser flags, as commander hands them over. */
export interface AnalyserFlags {
  analyser?: string;
  analyserUrl?: string;
  analyserModel?: string;
  analyserTimeout?: string;
}

/** Adds --analyser, --analyser-url, --analyser-model and --analyser-timeout. */
export function addAnalyserOptions(command: Command): Command {
  return command
    .option(
      '--analyser <kind>',
      'who reads inbound narrations: rules (default), or openai-compatible for a local model server (env LEDGER_ANALYSER)',
    )
    .option(
      '--analyser-url <url>',
      'base URL of the OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 (env LEDGER_ANALYSER_URL)',
    )
    .option(
      '--analyser-model <name>',
      'the model to ask (env LEDGER_ANALYSER_MODEL); a key, if the server wants one, goes in LEDGER_ANALYSER_API_KEY',
    )
    .option(
      '--analyser-timeout <seconds>',
      'seconds the model has before the rules analyser answers instead (default 3; env LEDGER_ANALYSER_TIMEOUT)',
    );
}

/** Flags win over environment variables; the rules analyser is the default. */
export function analyserConfig(flags: AnalyserFlags, env: NodeJS.ProcessEnv): AnalyserConfig {
  const kind = flags.analyser ?? env.LEDGER_ANALYSER ?? 'rules';
  const url = flags.analyserUrl ?? env.LEDGER_ANALYSER_URL;
  const model = flags.analyserModel ?? env.LEDGER_ANALYSER_MODEL;
  const timeout = flags.analyserTimeout ?? env.LEDGER_ANALYSER_TIMEOUT;
  if (kind === 'rules') {
    if (flags.analyserUrl !== undefined || flags.analyserModel !== undefined || flags.analyserTimeout !== undefined) {
      throw new UsageError(
        '--analyser-url, --analyser-model and --analyser-timeout go with --analyser openai-compatible',
      );
    }
    return { kind };
  }
  if (kind !== 'openai-compatible')
    throw new UsageError(`--analyser must be rules or openai-compatible, not "${kind}"`);
  if (!url || !/^https?:\/\/[^\s]+$/.test(url))
    throw new UsageError(
      '--analyser openai-compatible needs --analyser-url, an http or https URL such as http://127.0.0.1:11434/v1',
    );
  if (!model?.trim())
    throw new UsageError('--analyser openai-compatible needs --analyser-model, the name of the model to ask');
  const timeoutSeconds = timeout === undefined ? undefined : Number(timeout);
  if (timeoutSeconds !== undefined && !(timeoutSeconds > 0 && timeoutSeconds <= 120))
    throw new UsageError('--analyser-timeout must be a number of seconds, above 0 and at most 120');
  return { kind, url, model: model.trim(), apiKey: env.LEDGER_ANALYSER_API_KEY || undefined, timeoutSeconds };
}

/** The same choice as flags, for the background process of `--detach` (the key travels in its environment). */
export function analyserArgs(config: AnalyserConfig): string[] {
  if (config.kind === 'rules') return [];
  return [
    '--analyser',
    config.kind,
    '--analyser-url',
    config.url!,
    '--analyser-model',
    config.model!,
    ...(config.timeoutSeconds ? ['--analyser-timeout', String(config.timeoutSeconds)] : []),
  ];
}

/** One line for the start banner. */
export function describeAnalyser(config: AnalyserConfig): string {
  return config.kind === 'rules'
    ? 'rules (offline)'
    : `openai-compatible: ${config.model} at ${config.url}, rules if it fails`;
}
