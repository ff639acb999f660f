import type { Shell } from './command-step.js';
import { execute, request } from './execute.js';
import type { Vars } from './interpolate.js';
import type { Outcome, Scenario, Step } from './model.js';
import {
  type ExchangeReport,
  type FailureReport,
  redact,
  redactMismatch,
  type ScenarioReport,
  type StepReport,
} from './results.js';
import type { Exchange, Target } from './target.js';
import { saved, verify } from './verify.js';
import { receivedBefore } from './webhooks.js';

export interface ScenarioRun {
  report: ScenarioReport;
  /** A step could not reach the sandbox. */
  unreachable: boolean;
}

const BODY_LIMIT = 2000;

function body(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const cut =
    text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length - BODY_LIMIT} more characters)` : text;
  return redact(cut);
}

function exchangeReport({ request: sent, response, error }: Exchange): ExchangeReport {
  return {
    request: redact(`${sent.method} ${sent.path}`),
    requestBody: body(sent.body),
    response: response ? String(response.status) : `no answer (${redact(error ?? 'unknown')})`,
    responseBody: body(response?.body),
  };
}

/**
 * Runs one scenario against `target`: setup, then steps, each checked against its expectations
 * before its values are saved; it stops at the first step that fails. Then, unless `audit: false`,
 * the ledger audit must be clean. A failure in setup, or a step that could not run at all, is an
 * error; anything else that does not hold is a failure.
 */
export async function runScenario(
  scenario: Scenario,
  file: string,
  target: Target,
  shell: Shell,
): Promise<ScenarioRun> {
  const started = performance.now();
  const vars: Vars = { ...scenario.vars };
  const phases = [
    ...scenario.setup.map((step) => ['setup', step] as const),
    ...scenario.steps.map((step) => ['steps', step] as const),
  ];
  // Only an expect_webhook step reads the receiver's record, so only a scenario that has one takes
  // what the record held before it began (every page of it, on a long-lived --base-url sandbox).
  const deliveries = phases.some(([, step]) => step.kind === 'expect_webhook')
    ? await receivedBefore(target)
    : new Set<string>();
  const steps: StepReport[] = [];
  let failure: FailureReport | undefined;
  let unreachable = false;
  for (const [phase, step] of phases) {
    const report: StepReport = {
      phase,
      line: step.line,
      text: step.text,
      name: step.name,
      status: 'skipped',
      durationMs: 0,
    };
    steps.push(report);
    if (failure) continue;
    const t0 = performance.now();
    target.take();
    let outcome: Outcome;
    let crashed = false;
    try {
      outcome = await execute(step, vars, { target, shell, deliveries });
    } catch (error) {
      crashed = true;
      outcome = {
        result: {},
        ok: false,
        summary: `could not run: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const exchanges = step.kind === 'expect_webhook' ? [] : target.take().map(exchangeReport);
    const verdict = verify(step, outcome, vars);
    let missing: string[] = [];
    if (!verdict.summary && verdict.mismatches.length === 0) {
      const save = saved(step, outcome);
      Object.assign(vars, save.values);
      missing = save.missing;
    }
    report.durationMs = performance.now() - t0;
    unreachable ||= Boolean(outcome.unreachable);
    if (!verdict.summary && verdict.mismatches.length === 0 && missing.length === 0) {
      report.status = 'passed';
      continue;
    }
    report.status = 'failed';
    const first = verdict.mismatches[0];
    const more = verdict.mismatches.length > 1 ? ` (and ${verdict.mismatches.length - 1} more)` : '';
    failure = {
      kind: phase === 'setup' || crashed || outcome.unreachable ? 'error' : 'expectation',
      message: redact(verdict.summary ?? (first ? `${first.path}: ${first.message}${more}` : missing[0]!)),
      step: { phase, line: step.line, column: step.column, text: step.text, name: step.name },
      mismatches: verdict.mismatches.map(redactMismatch),
      command: commandOf(step, outcome),
      exchanges,
      details: [...(outcome.details ?? []), ...(verdict.summary ? missing : missing.slice(1))].map(redact),
    };
  }
  if (scenario.audit && !unreachable) {
    const problems = await audit(target);
    if (problems.length > 0 && failure) failure.details.push(...problems);
    else if (problems.length > 0)
      failure = { kind: 'audit', message: problems[0]!, mismatches: [], exchanges: [], details: problems.slice(1) };
  }
  return {
    report: {
      name: scenario.name,
      file,
      line: scenario.line,
      status: !failure ? 'passed' : failure.kind === 'error' ? 'error' : 'failed',
      durationMs: performance.now() - started,
      steps,
      failure,
    },
    unreachable,
  };
}

function commandOf(step: Step, outcome: Outcome): FailureReport['command'] {
  if (step.kind !== 'run' || outcome.command === undefined) return undefined;
  return {
    line: redact(outcome.command),
    exit: outcome.result.exit as number,
    stderr: redact(String(outcome.result.stderr ?? '')),
  };
}

/** The ledger audit of the caller's books: the problems it lists (none when clean). */
async function audit(target: Target): Promise<string[]> {
  const outcome = await request(target, 'GET', '/sandbox/audit', undefined);
  target.take();
  if (!outcome.ok) return [`the audit could not run: ${outcome.summary}`];
  const report = outcome.result.data as { ok: boolean; problems: { check: string; message: string }[] };
  if (report.ok) return [];
  return [
    `the audit found ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}`,
    ...report.problems.map((p) => `[${p.check}] ${p.message}`),
  ];
}
