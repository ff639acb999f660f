/** What a run found, as every reporter reads it. */

export type ScenarioStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface StepReport {
  phase: 'setup' | 'steps';
  line: number;
  text: string;
  name?: string | undefined;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
}

export interface MismatchReport {
  path: string;
  /** The line of the expectation in the file. */
  line: number;
  message: string;
  expected: unknown;
  actual: unknown;
  diff?: string | undefined;
}

/** A request a step made and the answer, keys and secrets already hidden. */
export interface ExchangeReport {
  request: string;
  requestBody?: string | undefined;
  response: string;
  responseBody?: string | undefined;
}

export interface FailureReport {
  /** `expectation`: a step did not do what the file says; `audit`: the books do not balance; `error`: the scenario could not run (setup, the sandbox). */
  kind: 'expectation' | 'audit' | 'error';
  /** One line for people. */
  message: string;
  step?:
    { phase: 'setup' | 'steps'; line: number; column: number; text: string; name?: string | undefined } | undefined;
  mismatches: MismatchReport[];
  /** The command line as it ran, its exit code and what it printed on stderr (a command step). */
  command?: { line: string; exit: number; stderr: string } | undefined;
  exchanges: ExchangeReport[];
  details: string[];
}

export interface ScenarioReport {
  name: string;
  /** The file as reports show it. */
  file: string;
  line: number;
  status: ScenarioStatus;
  durationMs: number;
  steps: StepReport[];
  failure?: FailureReport | undefined;
  /** Why it was skipped (--bail). */
  skipReason?: string | undefined;
}

export interface FileReport {
  file: string;
  durationMs: number;
  scenarios: ScenarioReport[];
}

export interface RunReport {
  startedAt: Date;
  durationMs: number;
  files: FileReport[];
}

export function counts(scenarios: ScenarioReport[]): Record<ScenarioStatus, number> & { total: number } {
  const c = { passed: 0, failed: 0, error: 0, skipped: 0, total: scenarios.length };
  for (const s of scenarios) c[s.status] += 1;
  return c;
}

const KEY = /svc_(test|live)_[0-9A-Za-z]{32}/g;
const SECRET = /whsec_[0-9A-Za-z+/=]{20,}/g;

/** Text with API keys and signing secrets cut to a hint: reports end up in CI logs and artifacts. */
export function redact(text: string): string {
  return text.replace(KEY, (key) => `${key.slice(0, 9)}…${key.slice(-4)}`).replace(SECRET, 'whsec_…');
}

/** A value from a step's result or its expectation, with `redact` applied to every text in it. */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, redactValue(inner)]));
  return value;
}

/** A mismatch as reports show it: what was expected and what came instead can hold a key the step saw (`sandbox keys`, a saved variable). */
export function redactMismatch(m: MismatchReport): MismatchReport {
  return {
    ...m,
    message: redact(m.message),
    expected: redactValue(m.expected),
    actual: redactValue(m.actual),
    ...(m.diff === undefined ? {} : { diff: redact(m.diff) }),
  };
}
