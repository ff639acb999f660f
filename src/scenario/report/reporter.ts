import type { FileReport, RunReport, ScenarioReport } from '../results.js';

/**
 * A report as the run goes: pretty and TAP print each scenario as it ends, JUnit writes the whole
 * document at the end.
 */
export interface Reporter {
  start(): void;
  fileStart(file: string): void;
  scenarioEnd(scenario: ScenarioReport): void;
  fileEnd(file: FileReport): void;
  end(run: RunReport): void;
}

export type ReporterName = 'pretty' | 'tap' | 'junit';
export const REPORTERS: ReporterName[] = ['pretty', 'tap', 'junit'];

/** Seconds with millisecond precision, as JUnit writes them. */
export const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** `1.2 s`, `340 ms`. */
export const duration = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
