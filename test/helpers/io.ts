import { expect } from 'vitest';
import { createIo, type Io } from '../../src/cli/io.js';

export interface CapturedIo {
  io: Io;
  stdout: () => string;
  stderr: () => string;
}

/** An Io whose streams are captured; `tty` makes it look like a person at a terminal, `columns` wide. */
export function captureIo(
  flags: Record<string, unknown>,
  options: { baseUrl: string; apiKey: string; tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv },
): CapturedIo {
  let out = '';
  let err = '';
  const tty = options.tty ?? false;
  const io = createIo(
    { baseUrl: options.baseUrl, apiKey: options.apiKey, ...flags },
    {
      stdout: { write: (s: string) => (out += s), isTTY: tty, columns: options.columns },
      stderr: { write: (s: string) => (err += s), isTTY: tty, columns: options.columns },
      stdinIsTTY: tty,
      env: options.env ?? {},
      cwd: '/nonexistent',
    },
  );
  return { io, stdout: () => out, stderr: () => err };
}

/**
 * `ledger ARGS` in this process from `cwd`, its output captured (`tty`: as at a terminal; `env`: its environment).
 * @example const run = await commandIn(cwd, ['sandbox', 'clock'], { env: { LEDGER_BASE_URL: url, LEDGER_API_KEY: key } });
 */
export async function commandIn(
  cwd: string,
  args: string[],
  options: { tty?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const { commandLines } = await import('../../src/main/program.js');
  const tty = options.tty ?? false;
  let stdout = '';
  let stderr = '';
  const exitCode = await commandLines.run(args, [], {
    sources: {
      stdout: { write: (s: string) => (stdout += s), isTTY: tty },
      stderr: { write: (s: string) => (stderr += s), isTTY: tty },
      env: options.env ?? {},
      cwd,
    },
    exitCode: 0,
  });
  return { exitCode, stdout, stderr };
}

/** `ledger scenario run ARGS` in this process from `cwd` (commandIn). */
export const scenarioRunIn = (cwd: string, args: string[], tty = false) =>
  commandIn(cwd, ['scenario', 'run', ...args], { tty });

/**
 * An `Error [CODE]: message` line as the API's refusal prints it: ending with the request's id,
 * `(request req_00000012)`, whose number depends on how many requests the test's sandbox had before.
 * @example expect(stderr).toEqual(refusalLine('Error [NOT_FOUND]: wallet not found\n'));
 */
export const refusalLine = (line: string) =>
  expect.stringMatching(
    new RegExp(
      `^${line.replace(/\n$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(request req_(anon_)?\\d{8}\\)\\n$`,
    ),
  );
