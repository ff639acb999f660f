import { interpolateValue, type Vars } from './interpolate.js';
import { matchValue } from './matchers.js';
import type { Outcome, Step } from './model.js';
import { valueAt } from './paths.js';
import type { MismatchReport } from './results.js';

export interface Verdict {
  /** Why the step failed as a whole (it should have succeeded, or failed with another code). */
  summary?: string | undefined;
  mismatches: MismatchReport[];
}

/**
 * Whether a step did what its file says. With `expect_error: CODE` it must fail with that code;
 * with an `expect` on `status` or `exit` those decide; otherwise it must succeed (exit 0, a 2xx
 * answer). Then every field expectation must hold: all are checked, so one run shows every
 * difference.
 */
export function verify(step: Step, outcome: Outcome, vars: Vars): Verdict {
  const expectations = step.expect.map((e) => ({ ...e, expected: interpolateValue(e.expected, vars) }));
  const error = outcome.result.error as { code?: string; message?: string } | undefined;
  let summary: string | undefined;
  if (step.expectError) {
    if (outcome.ok) summary = `expected it to fail with ${step.expectError}, but it succeeded`;
    else if (error?.code !== step.expectError)
      summary = `expected it to fail with ${step.expectError}, but it ${outcome.summary ?? 'failed otherwise'}`;
  } else if (
    !outcome.ok &&
    (step.kind === 'expect_webhook' || !expectations.some((e) => e.path === 'status' || e.path === 'exit'))
  ) {
    summary = outcome.summary;
  }
  // A step that failed when it should have succeeded has no result to compare: the summary says it all.
  if (summary !== undefined && !step.expectError) return { summary, mismatches: [] };
  const mismatches = expectations.flatMap((e) =>
    matchValue(e.expected, valueAt(outcome.result, e.path)).map((m) => ({ ...m, path: e.path, line: e.line })),
  );
  return { summary, mismatches };
}

/** The variables a passing step saves; a path the result does not have is a failure. */
export function saved(step: Step, outcome: Outcome): { values: Vars; missing: string[] } {
  const values: Vars = {};
  const missing: string[] = [];
  for (const [name, path] of Object.entries(step.save)) {
    const value = valueAt(outcome.result, path);
    if (value === undefined) missing.push(`save ${name}: ${path} is not in the step's result`);
    else values[name] = value;
  }
  return { values, missing };
}
