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
 * successfully, as git and gh do. `keepRunningOnClosedPipe()` turns that off for `sandbox start`,
 * whose log reader going away must not stop the server: its lines are dropped instead.
 */
let exitOnClosedPipe = true;

export function keepRunningOnClosedPipe(): void {
  exitOnClosedPipe = false;
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
        if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
        if (exitOnClosedPipe) process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
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
