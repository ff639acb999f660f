import { stringify } from 'yaml';
import type { Stream } from '../../text/wrap.js';
import { counts, type ScenarioReport } from '../results.js';
import { failureLines } from './failure-text.js';
import type { Reporter } from './reporter.js';

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((line) => (line ? by + line : line))
    .join('\n');

/** A TAP description: one line, without the `#` that would start a directive. */
const describe = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/#/g, '\\#');

/** The YAML diagnostics of a scenario's test point; `duration_ms` comes last, so the rest is the same in every run. */
function diagnostics(s: ScenarioReport): Record<string, unknown> {
  const block: Record<string, unknown> = {};
  const f = s.failure;
  if (f) {
    block.message = f.message;
    block.severity = s.status === 'error' ? 'error' : 'fail';
    block.at = { file: s.file, line: f.step?.line ?? s.line, ...(f.step ? { column: f.step.column } : {}) };
    if (f.step) block.step = f.step.name ? `${f.step.name}: ${f.step.text}` : f.step.text;
    const first = f.mismatches[0];
    if (first) Object.assign(block, { expected: first.expected ?? null, actual: first.actual ?? null });
    // After the first line (where), everything but the message, which is said above.
    block.details = failureLines(s, f)
      .slice(1)
      .filter((line) => line !== f.message);
  }
  block.duration_ms = Math.round(s.durationMs);
  return block;
}

/**
 * TAP version 14 for CI: a subtest per file, a test point per scenario, failures with a YAML
 * block (message, file and line of the step, expected and actual, the requests and answers), a
 * SKIP directive for what --bail left out, and the counts as comments at the end. Everything but
 * the durations is the same in every run of the same files with the same seed.
 */
export function tapReporter(out: Stream): Reporter {
  const write = (text: string) => out.write(`${text}\n`);
  let fileIndex = 0;
  let scenarioIndex = 0;
  return {
    start() {
      write('TAP version 14');
    },
    fileStart(file) {
      scenarioIndex = 0;
      write(`# Subtest: ${describe(file)}`);
    },
    scenarioEnd(s) {
      scenarioIndex += 1;
      const ok = s.status === 'passed' || s.status === 'skipped';
      const directive = s.status === 'skipped' ? ` # SKIP ${describe(s.skipReason ?? '')}` : '';
      write(`    ${ok ? 'ok' : 'not ok'} ${scenarioIndex} - ${describe(s.name)}${directive}`);
      if (s.status !== 'skipped') write(indent(`---\n${stringify(diagnostics(s), { lineWidth: 0 })}...`, '      '));
    },
    fileEnd(file) {
      fileIndex += 1;
      write(`    1..${file.scenarios.length}`);
      const failed = file.scenarios.some((s) => s.status === 'failed' || s.status === 'error');
      write(`${failed ? 'not ok' : 'ok'} ${fileIndex} - ${describe(file.file)}`);
    },
    end(run) {
      const n = counts(run.files.flatMap((f) => f.scenarios));
      write(`1..${run.files.length}`);
      write(`# scenarios ${n.total}`);
      write(`# pass ${n.passed}`);
      write(`# fail ${n.failed + n.error}`);
      write(`# skip ${n.skipped}`);
    },
  };
}
