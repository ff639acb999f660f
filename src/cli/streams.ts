import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { Stream } from './output/render.js';

/**
 * stdout and stderr for the command line, written with `fs.writeSync` on their file descriptors:
 * nothing is built until something is printed, and never the stream objects behind
 * `process.stdout` (for a pipe, a socket; their set-up cost a few milliseconds at every start).
 * Writes are synchronous, as Node's own are for pipes, files and terminals on Linux.
 *
 * A reader that stops early (`| head -1`) closes the pipe: the command then ends there, quietly and
 * successfully, as git and gh do. `keepRunningWhenOutputFails()` turns that off for `sandbox start`,
 * whose log must never stop the server: a line that cannot be written (its reader went away, its
 * file is on a full disk: ENOSPC, EIO, EFBIG, EDQUOT) is dropped, and the server serves on.
 */
let serverLog = false;

export function keepRunningWhenOutputFails(): void {
  serverLog = true;
}

function fdStream(fd: 1 | 2): Stream {
  let tty: boolean | undefined;
  return {
    write(text: string) {
      try {
        writeSync(fd, text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          // A descriptor someone else made non-blocking: hand the text to Node's own stream.
          (fd === 1 ? process.stdout : process.stderr).write(text);
          return true;
        }
        if (serverLog) return true;
        if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
        process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      }
      return true;
    },
    get isTTY() {
      return (tty ??= isatty(fd));
    },
    get columns() {
      return this.isTTY ? (fd === 1 ? process.stdout : process.stderr).columns : undefined;
    },
  };
}

export const stdout: Stream = fdStream(1);
export const stderr: Stream = fdStream(2);
export const stdinIsTTY = (): boolean => isatty(0);
