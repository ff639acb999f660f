import { show } from '../diff.js';
import type { FailureReport, ScenarioReport } from '../results.js';

/**
 * A failure as lines of plain text, the same in every report: where (file and line of the step),
 * what was expected and what came instead (with a diff for objects), and the step's requests and
 * answers, or its command line and what it printed on stderr.
 */
export function failureLines(scenario: ScenarioReport, failure: FailureReport): string[] {
  const lines: string[] = [];
  const step = failure.step;
  if (step) {
    const phase = step.phase === 'setup' ? 'setup step' : 'step';
    lines.push(
      `at ${scenario.file}:${step.line}:${step.column}, ${phase} ${step.name ? `"${step.name}": ` : ''}${step.text}`,
    );
  } else {
    lines.push(`at ${scenario.file}:${scenario.line}, scenario "${scenario.name}"`);
  }
  // A failure that is its first mismatch is said once, with the expectation's line.
  const first = failure.mismatches[0];
  if (!first || !failure.message.startsWith(`${first.path}: ${first.message}`)) lines.push(failure.message);
  for (const m of failure.mismatches) {
    lines.push(`${m.path} (line ${m.line}): ${m.message}`);
    if (m.diff) lines.push(`  - expected`, `  + actual`, ...m.diff.split('\n').map((l) => `  ${l}`));
    else if (!m.message.includes(show(m.actual))) lines.push(`  actual: ${show(m.actual)}`);
  }
  if (failure.command) {
    lines.push(`command: ledger ${failure.command.line} (exit ${failure.command.exit})`);
    const stderr = failure.command.stderr.trim();
    if (stderr) lines.push(...stderr.split('\n').map((l) => `  stderr: ${l}`));
  }
  for (const exchange of failure.exchanges) {
    lines.push(`request: ${exchange.request}${exchange.requestBody ? ` ${exchange.requestBody}` : ''}`);
    lines.push(`response: ${exchange.response}${exchange.responseBody ? ` ${exchange.responseBody}` : ''}`);
  }
  lines.push(...failure.details);
  return lines;
}
