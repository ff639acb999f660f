import { DEFAULT_SEEDED_CLOCK_START } from '../sandbox/start-options.js';
import type { SnapshotTarget } from '../sandbox/snapshots.js';
import { request } from './execute.js';
import type { Scenario, ScenarioFile } from './model.js';
import type { Reporter } from './report/reporter.js';
import type { FileReport, RunReport, ScenarioReport } from './results.js';
import type { Shell } from './command-step.js';
import { runScenario } from './runner.js';
import { httpTarget, inProcessTarget, type Target } from './target.js';

/** The seed of a scenario's sandbox when neither --seed nor the file gives one. */
export const DEFAULT_SEED = '1';

export interface SuiteOptions {
  /** Where command-line steps run, and how. */
  shell: Shell;
  /** --seed: every scenario's sandbox, whatever its file says. */
  seed?: string | undefined;
  /** --snapshot: the state every scenario starts from (in-process: a file). */
  snapshot?: SnapshotTarget | undefined;
  /** --base-url: run against this sandbox instead, with this key. */
  remote?: { baseUrl: string; apiKey: string } | undefined;
  /** --port: where each in-process sandbox listens (0: a port the system picks). */
  port?: number | undefined;
  bail: boolean;
  /** Unexpected errors of an in-process sandbox (bugs). */
  log: (line: string) => void;
}

export interface SuiteResult {
  run: RunReport;
  /** 0 all passed; 1 a scenario failed or could not run; 3 the sandbox could not be reached. */
  exitCode: number;
}

/**
 * Runs every scenario of every file, in order, each on a fresh seeded sandbox in this process (or,
 * with `remote`, on the running sandbox, restored to `snapshot` first when one is given), and tells
 * the reporters as it goes. With `bail`, the first scenario that does not pass ends the run: the
 * rest are reported as skipped.
 */
export async function runSuite(
  files: ScenarioFile[],
  options: SuiteOptions,
  reporters: Reporter[],
): Promise<SuiteResult> {
  const startedAt = new Date();
  const started = performance.now();
  const tell = (event: (reporter: Reporter) => void) => reporters.forEach(event);
  const shared = options.remote ? httpTarget(options.remote.baseUrl, options.remote.apiKey) : undefined;
  let stopped: string | undefined;
  let unreachable = false;
  let failed = false;
  const reports: FileReport[] = [];
  tell((r) => r.start());
  for (const file of files) {
    const fileStarted = performance.now();
    tell((r) => r.fileStart(file.display));
    const scenarios: ScenarioReport[] = [];
    for (const scenario of file.scenarios) {
      let report: ScenarioReport;
      if (stopped) {
        report = {
          name: scenario.name,
          file: file.display,
          line: scenario.line,
          status: 'skipped',
          durationMs: 0,
          steps: [],
          skipReason: stopped,
        };
      } else {
        const ran = await runOne(scenario, file.display, options, shared);
        report = ran.report;
        unreachable ||= ran.unreachable;
        if (report.status !== 'passed') {
          failed = true;
          if (options.bail) stopped = `--bail: ${scenario.name} did not pass`;
        }
      }
      scenarios.push(report);
      tell((r) => r.scenarioEnd(report));
    }
    const fileReport = { file: file.display, durationMs: performance.now() - fileStarted, scenarios };
    reports.push(fileReport);
    tell((r) => r.fileEnd(fileReport));
  }
  const run: RunReport = { startedAt, durationMs: performance.now() - started, files: reports };
  tell((r) => r.end(run));
  return { run, exitCode: unreachable ? 3 : failed ? 1 : 0 };
}

/** One scenario on its own sandbox (or the shared one); a sandbox that cannot start is the scenario's error. */
async function runOne(
  scenario: Scenario,
  file: string,
  options: SuiteOptions,
  shared: Target | undefined,
): Promise<{ report: ScenarioReport; unreachable: boolean }> {
  const started = performance.now();
  let target: Target | undefined = shared;
  try {
    if (!target) {
      target = await inProcessTarget({
        seed: options.seed ?? scenario.seed ?? DEFAULT_SEED,
        clockStart: Date.parse(DEFAULT_SEEDED_CLOCK_START),
        snapshot: options.snapshot,
        port: options.port ?? 0,
        log: options.log,
      });
    } else if (options.snapshot) {
      const at = options.snapshot;
      const restored =
        'name' in at
          ? await request(target, 'POST', `/sandbox/snapshots/${encodeURIComponent(at.name)}/restore`, undefined)
          : await request(target, 'POST', '/sandbox/snapshots/restore', at);
      target.take();
      if (!restored.ok)
        throw Object.assign(new Error(`the starting snapshot could not be restored: ${restored.summary}`), {
          unreachable: restored.unreachable,
        });
    }
    return await runScenario(scenario, file, target, options.shell);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      report: {
        name: scenario.name,
        file,
        line: scenario.line,
        status: 'error',
        durationMs: performance.now() - started,
        steps: [],
        failure: { kind: 'error', message, mismatches: [], exchanges: [], details: [] },
      },
      unreachable: Boolean((error as { unreachable?: boolean }).unreachable),
    };
  } finally {
    if (target && target !== shared) await target.close();
  }
}
