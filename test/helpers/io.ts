import { createIo, type Io } from '../../src/commands/io.js';

export interface CapturedIo {
  io: Io;
  stdout: () => string;
  stderr: () => string;
}

/** An Io whose streams are captured; `tty` makes it look like a person at a terminal, `columns` wide. */
export function captureIo(flags: Record<string, unknown>, options: { baseUrl: string; apiKey: string; tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv }): CapturedIo {
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
