import { colourFor, plural } from '../../text/format.js';
import { clean } from '../../text/clean.js';
import { type Stream, widthOf, wrap } from '../../text/wrap.js';
import { counts, type ScenarioReport } from '../results.js';
import { failureLines } from './failure-text.js';
import { duration, type Reporter } from './reporter.js';

/**
 * For people at a terminal: each file, each scenario with a tick or a cross as it ends, every
 * failure in full under its scenario, and a count at the end. Colour only on a terminal without
 * NO_COLOR; text from data is cleaned of control characters and escape sequences.
 */
export function prettyReporter(out: Stream, env: NodeJS.ProcessEnv): Reporter {
  const c = colourFor(out, env);
  // Broken at spaces to fit the terminal, a long line continued `hang` columns in (a request's or a
  // response's body, which has no spaces, where the terminal ends).
  const width = widthOf(out, env);
  const write = (line = '', hang?: number) => out.write(`${wrap(line, width, hang).join('\n')}\n`);
  return {
    start() {},
    fileStart(file) {
      write(c.bold(clean(file)));
    },
    scenarioEnd(s: ScenarioReport) {
      const ran = s.steps.filter((step) => step.status !== 'skipped').length;
      const name = clean(s.name);
      if (s.status === 'passed')
        write(`  ${c.green('✓')} ${name} ${c.dim(`(${plural(ran, 'step')}, ${duration(s.durationMs)})`)}`, 4);
      else if (s.status === 'skipped')
        write(`  ${c.yellow('-')} ${name} ${c.dim(`(skipped: ${s.skipReason ?? ''})`)}`, 4);
      else {
        const failed = s.steps.findIndex((step) => step.status === 'failed');
        const where =
          failed >= 0
            ? `step ${failed + 1} of ${s.steps.length}`
            : s.failure?.kind === 'audit'
              ? 'the audit'
              : 'before its steps';
        write(
          `  ${c.red('✗')} ${name} ${c.dim(`(${s.status === 'error' ? 'error' : 'failed'} at ${where}, ${duration(s.durationMs)})`)}`,
          4,
        );
        for (const [i, line] of failureLines(s, s.failure!).entries())
          write(`      ${i === 1 ? c.red(clean(line)) : clean(line)}`, 8);
      }
    },
    fileEnd() {},
    end(run) {
      const all = run.files.flatMap((f) => f.scenarios);
      const n = counts(all);
      const parts = [
        n.passed && c.green(`${n.passed} passed`),
        n.failed && c.red(`${n.failed} failed`),
        n.error && c.red(`${n.error} with errors`),
        n.skipped && c.yellow(`${n.skipped} skipped`),
      ].filter(Boolean);
      write();
      write(
        `${plural(n.total, 'scenario')}: ${parts.join(', ') || 'none ran'} ${c.dim(`(${plural(run.files.length, 'file')}, ${duration(run.durationMs)})`)}`,
      );
    },
  };
}
