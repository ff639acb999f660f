/** A scenario file as the runner uses it: checked, every step with the line it came from. */

/** One field of a step's result and what it must be (`${…}` still in it: filled in when the step runs). */
export interface Expectation {
  path: string;
  expected: unknown;
  line: number;
}

interface StepBase {
  /** 1-based line and column of the step in its file. */
  line: number;
  column: number;
  /** The step as written, for reports: `credit ${ADA} 500000`, `POST /v1/wallets`, `advance 2s`. */
  text: string;
  name?: string | undefined;
  save: Record<string, string>;
  expect: Expectation[];
  expectError?: string | undefined;
}

export type Step =
  | (StepBase & { kind: 'run'; words: string[] })
  | (StepBase & {
      kind: 'request';
      method: string;
      target: string;
      body: unknown;
      headers: Record<string, string | null>;
    })
  | (StepBase & { kind: 'advance'; seconds: number })
  | (StepBase & { kind: 'snapshot'; action: 'save' | 'restore'; snapshot: string })
  | (StepBase & { kind: 'expect_webhook'; eventType: string; match: Expectation[] });

export type StepKind = Step['kind'];

export interface Scenario {
  name: string;
  /** Where the scenario starts in its file (1-based). */
  line: number;
  /** As the sandbox takes it (digits), when the file gives one. */
  seed?: string | undefined;
  vars: Record<string, unknown>;
  setup: Step[];
  steps: Step[];
  audit: boolean;
}

export interface ScenarioFile {
  /** Absolute path. */
  path: string;
  /** As reports show it: relative to the working directory. */
  display: string;
  scenarios: Scenario[];
}

/** A place in a file that breaks the format, and why. */
export interface Problem {
  line: number;
  column: number;
  message: string;
}

/** The first fields of each kind of step's result, which `expect` and `save` paths start with. */
export const RESULT_FIELDS: Record<StepKind, string[]> = {
  run: ['exit', 'data', 'error', 'stdout', 'stderr'],
  request: ['status', 'headers', 'body', 'data', 'error'],
  advance: ['status', 'headers', 'body', 'data', 'error'],
  snapshot: ['status', 'headers', 'body', 'data', 'error'],
  expect_webhook: ['event_id', 'event_type', 'api_version', 'created_at', 'data', 'headers'],
};

/** What one step did, before its expectations are checked. */
export interface Outcome {
  /** What `expect` and `save` paths read: { exit, data, error, … } or { status, headers, body, data, error }. */
  result: Record<string, unknown>;
  /** Did it succeed by its own measure (exit 0, a 2xx answer, a matching delivery)? */
  ok: boolean;
  /** When it did not: one line saying how. */
  summary?: string | undefined;
  /** More lines about it (deliveries that almost matched, say). */
  details?: string[] | undefined;
  /** The command line as it ran, for a command step. */
  command?: string | undefined;
  /** The sandbox could not be reached (exit code 3 for the whole run). */
  unreachable?: boolean | undefined;
}
