import { hostname } from 'node:os';
import type { Stream } from '../../text/wrap.js';
import { counts, type FileReport, type ScenarioReport } from '../results.js';
import { failureLines } from './failure-text.js';
import { type Reporter, seconds } from './reporter.js';

/** Characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/F): dropped. */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function xml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function testcase(s: ScenarioReport): string {
  const open = `    <testcase name="${xml(s.name)}" classname="${xml(s.file)}" time="${seconds(s.durationMs)}"`;
  if (s.status === 'passed') return `${open}/>`;
  if (s.status === 'skipped') return `${open}>\n      <skipped>${xml(s.skipReason ?? '')}</skipped>\n    </testcase>`;
  const f = s.failure!;
  const element = s.status === 'error' ? 'error' : 'failure';
  return `${open}>\n      <${element} message="${xml(f.message)}" type="${f.kind}">${xml(failureLines(s, f).join('\n'))}</${element}>\n    </testcase>`;
}

function testsuite(file: FileReport, startedAt: Date): string {
  const n = counts(file.scenarios);
  return [
    `  <testsuite name="${xml(file.file)}" tests="${n.total}" failures="${n.failed}" errors="${n.error}" ` +
      `skipped="${n.skipped}" time="${seconds(file.durationMs)}" ` +
      `timestamp="${startedAt.toISOString().replace(/\.\d+Z$/, '')}" hostname="${xml(hostname())}">`,
    ...file.scenarios.map(testcase),
    '  </testsuite>',
  ].join('\n');
}

/**
 * JUnit XML, as CI tools read it (valid against the common JUnit XSD, the Jenkins one; a test
 * checks): one testsuite per file, one testcase per scenario, a `failure` for an expectation or an
 * audit that does not hold, an `error` for a scenario that could not run, `skipped` for what --bail
 * left out. Written whole at the end.
 */
export function junitReporter(out: Stream): Reporter {
  const started = new Map<string, Date>();
  return {
    start() {},
    fileStart(file) {
      started.set(file, new Date());
    },
    scenarioEnd() {},
    fileEnd() {},
    end(run) {
      const n = counts(run.files.flatMap((f) => f.scenarios));
      out.write(
        [
          '<?xml version="1.0" encoding="UTF-8"?>',
          `<testsuites name="ledger scenario run" tests="${n.total}" failures="${n.failed}" errors="${n.error}" time="${seconds(run.durationMs)}">`,
          ...run.files.map((file) => testsuite(file, started.get(file.file) ?? run.startedAt)),
          '</testsuites>',
          '',
        ].join('\n'),
      );
    },
  };
}
