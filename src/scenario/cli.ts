import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readCapabilities } from '../client/capabilities.js';
import { requireKey, resolveConfig } from '../client/config.js';
import { EXIT, UsageError } from '../client/errors.js';
import { ApiClient } from '../client/http.js';
import { saveFile } from '../client/save-file.js';
import { SNAPSHOT_DIR, stateDirFor } from '../client/state.js';
import { namedSnapshotFile } from '../api/snapshot-name.js';
import { assertTempDirUsable } from '../client/temp-dir.js';
import { loadDriver } from '../engine/db/open-storage.js';
import { sandboxOnlyRefusal } from '../client/live.js';
import { clean } from '../text/clean.js';
import { plural } from '../text/format.js';
import { fitted, type Stream } from '../text/wrap.js';
import { parsePort, parseSeed, parseSnapshotTarget } from '../sandbox/start-options.js';
import type { SnapshotTarget } from '../sandbox/snapshots.js';
import type { CommandLines } from './command-step.js';
import { checkReportPath, FormatErrors, loadScenarioFiles } from './files.js';
import { checkExcludes } from './ignore.js';
import type { RunReport } from './results.js';
import { junitReporter } from './report/junit.js';
import { prettyReporter } from './report/pretty.js';
import { type Reporter, type ReporterName, REPORTERS } from './report/reporter.js';
import { tapReporter } from './report/tap.js';
import { runSuite } from './suite.js';

/**
 * `ledger sandbox start` takes the server from here too, so that it runs from the same bundle with its
 * code cache (scripts/bundle.js): about 0.15 s to load, against 0.6-0.8 s for the server's ~1,100 ES
 * module files, which Node 20 compiles from their source at every start.
 */
export { startServer } from '../sandbox/server.js';
export { DatabaseInUseError } from '../engine/db/open-storage.js';
export { LedgerError } from '../engine/errors.js';
export { HTTP_STATUS } from '../api/errors.js';

export interface RunFlags {
  reporter?: string;
  output?: string;
  bail?: boolean;
  seed?: string;
  snapshot?: string;
  baseUrl?: string;
  apiKey?: string;
  exclude?: string[];
  port?: string;
}

/** What a run writes to and reads from: the `scenario run` command's Io fits it. */
export interface RunIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: Stream;
  stderr: Stream;
  /** A note for people on stderr (silent under --json and --quiet). */
  note(text: string): void;
}

function reporterFor(name: ReporterName, out: Stream, env: NodeJS.ProcessEnv): Reporter {
  if (name === 'junit') return junitReporter(out);
  if (name === 'tap') return tapReporter(out);
  return prettyReporter(out, env);
}

/** The reporter asked for; without --reporter, by --output's extension (.xml JUnit, else TAP), or pretty on a terminal and TAP otherwise. */
function chooseReporter(flags: RunFlags, stdoutIsTTY: boolean): ReporterName {
  if (flags.reporter !== undefined) {
    const name = flags.reporter.toLowerCase() as ReporterName;
    if (!REPORTERS.includes(name)) throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}`);
    return name;
  }
  if (flags.output !== undefined) return /\.xml$/i.test(flags.output) ? 'junit' : 'tap';
  return stdoutIsTTY ? 'pretty' : 'tap';
}

/** The file `--snapshot` names, if it names one (a malformed value is reported by startingSnapshot). */
function snapshotFile(value: string | undefined, cwd: string): string | undefined {
  try {
    const target = value === undefined ? undefined : parseSnapshotTarget(value, cwd);
    return target && 'file' in target ? target.file : undefined;
  } catch {
    return undefined;
  }
}

/** `--snapshot`: in-process, a named snapshot is the file `sandbox snapshot save NAME` wrote here. */
function startingSnapshot(value: string | undefined, io: RunIo, remote: boolean): SnapshotTarget | undefined {
  if (value === undefined) return undefined;
  let target: SnapshotTarget;
  try {
    target = parseSnapshotTarget(value, io.cwd);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (remote && 'name' in target) return target;
  const file =
    'file' in target ? target.file : namedSnapshotFile(join(stateDirFor(io.cwd, io.env), SNAPSHOT_DIR), target.name);
  if (!existsSync(file))
    throw new UsageError(
      `--snapshot ${value}: ` +
        ('name' in target
          ? `no snapshot of that name in ${dirname(file)} (save one with \`ledger sandbox snapshot save ${value}\`)`
          : `${file} does not exist`),
    );
  return { file };
}

/** `--port`: where each in-process sandbox listens; a running sandbox (--base-url) already has its port. */
function listenPort(flags: RunFlags): number {
  if (flags.port === undefined) return 0;
  if (flags.baseUrl !== undefined)
    throw new UsageError(
      '--port has no effect with --base-url: the sandbox there listens where it was started (`ledger sandbox start --port`)',
    );
  try {
    return parsePort(flags.port);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * `ledger scenario run`: checks every file first (a malformed one is exit 2, with its line and
 * column, and nothing runs), then runs them and reports, and resolves the exit code, its failure
 * already told on stderr: 1 when a scenario fails, 3 when the sandbox named by --base-url cannot be
 * reached. Before anything runs it throws (exit 1) when the database driver cannot load
 * (NATIVE_MODULE) or --base-url is not a sandbox that takes the key. `lines` are the command lines
 * the steps run, from the program: the scenario engine imports no command.
 */
export async function runScenarioFiles(
  io: RunIo,
  paths: string[],
  flags: RunFlags,
  lines: CommandLines,
): Promise<number> {
  const reporter = chooseReporter(flags, Boolean(io.stdout.isTTY));
  const exclude = checkExcludes(flags.exclude ?? []);
  const port = listenPort(flags);
  // A run that stops before it reports (a malformed file, an unreachable sandbox, the driver) must
  // not leave an earlier run's report where CI reads this one's: the old file goes first.
  if (flags.output !== undefined) {
    checkReportPath(flags.output, paths, io.cwd, exclude, snapshotFile(flags.snapshot, io.cwd));
    rmSync(resolve(io.cwd, flags.output), { force: true });
  }
  let seed: string | undefined;
  try {
    seed = flags.seed === undefined ? undefined : parseSeed(flags.seed);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // The running sandbox has the seed it was started with: a --seed would change nothing, silently.
  if (seed !== undefined && flags.baseUrl !== undefined)
    throw new UsageError(
      `--seed has no effect with --base-url: the sandbox there has the seed it was started with (\`ledger sandbox start --seed ${seed}\`)`,
    );
  const snapshot = startingSnapshot(flags.snapshot, io, flags.baseUrl !== undefined);
  let files;
  try {
    files = loadScenarioFiles(paths, io.cwd, lines, exclude);
  } catch (error) {
    if (!(error instanceof FormatErrors)) throw error;
    for (const file of error.errors)
      for (const p of file.problems)
        io.stderr.write(`Error [INVALID_SCENARIO]: ${file.file}:${p.line}:${p.column}: ${p.message}\n`);
    return EXIT.USAGE;
  }
  let remote: { baseUrl: string; apiKey: string } | undefined;
  // A database driver that cannot load (built for another Node) is one error before anything runs,
  // as for `sandbox start`, not the same failure in every scenario.
  if (flags.baseUrl === undefined) {
    loadDriver();
    assertTempDirUsable(io.env);
  } else {
    const config = resolveConfig({ baseUrl: flags.baseUrl, apiKey: flags.apiKey, env: io.env, cwd: io.cwd });
    if (config.live) throw sandboxOnlyRefusal('ledger scenario run --base-url', config, 'is a live service');
    // Its /openapi.json, asked without a key, says whether it has the sandbox's routes at all: a service without them is refused before the key is sent.
    if (!(await readCapabilities(config.baseUrl, `${config.profile ?? ''} ${config.baseUrl}`, io.env)).sandbox) {
      throw sandboxOnlyRefusal(
        'ledger scenario run --base-url',
        config,
        "has none of the sandbox's routes (its /openapi.json lists no /sandbox path)",
      );
    }
    remote = { baseUrl: config.baseUrl, apiKey: requireKey(config, io.env, io.cwd) };
    // Before anything runs: unreachable is exit 3; a server that is not a sandbox (NOT_A_SANDBOX) or
    // refuses the key (UNAUTHORIZED) is one error, where every scenario failed on its first step.
    await new ApiClient(remote.baseUrl, remote.apiKey).sandbox('GET', '/sandbox/keys');
  }
  let report = '';
  const toFile: Stream = { write: (text: string) => (report += text), isTTY: false };
  const reporters =
    flags.output === undefined
      ? [reporterFor(reporter, io.stdout, io.env)]
      : [reporterFor(reporter, toFile, {}), prettyReporter(io.stdout, io.env)];
  const { run, exitCode } = await runSuite(
    files,
    {
      shell: { cwd: io.cwd, lines },
      seed,
      snapshot,
      remote,
      port,
      bail: Boolean(flags.bail),
      log: (line) => io.stderr.write(`${line}\n`),
    },
    reporters,
  );
  if (flags.output !== undefined) {
    const path = resolve(io.cwd, flags.output);
    mkdirSync(dirname(path), { recursive: true });
    // A file of its own, renamed into place: a link planted at PATH during the run is replaced, not written through.
    await saveFile(path, report, 0o666);
    io.note(
      `${reporter === 'junit' ? 'JUnit XML' : reporter === 'tap' ? 'TAP' : 'The report'} written to ${flags.output}`,
    );
  }
  if (exitCode !== 0) io.stderr.write(fitted(io.stderr, `${notPassed(run, exitCode)}\n`));
  return exitCode;
}

/**
 * The one stderr line of a run that did not pass, as every other failure has one: a CI log whose
 * stdout went to a report file still says what failed, and where (the report says why).
 */
function notPassed(run: RunReport, exitCode: number): string {
  const scenarios = run.files.flatMap((f) => f.scenarios);
  const missed = scenarios.filter((s) => s.status === 'failed' || s.status === 'error');
  const named = missed.slice(0, 3).map((s) => `${clean(s.file)}:${s.line} "${clean(s.name)}"`);
  if (missed.length > 3) named.push(`and ${missed.length - 3} more`);
  const code = exitCode === EXIT.UNREACHABLE ? 'UNREACHABLE' : 'SCENARIO_FAILED';
  return `Error [${code}]: ${missed.length} of ${plural(scenarios.length, 'scenarios')} did not pass: ${named.join(', ')}`;
}
