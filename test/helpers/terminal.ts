import { execa } from 'execa';
import { join } from 'node:path';
import { BIN, cleanEnv } from './cli.js';

/**
 * The built binary in a real terminal: a detached tmux session of `columns` × `rows` on its own
 * server socket. `keys` types (tmux send-keys names: 'Enter', 'C-c'), `screen` reads what is shown,
 * and `waitFor` looks at the screen until a pattern appears (a bounded number of looks, no clock).
 */
export interface Terminal {
  keys(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  screen(): Promise<string>;
  /** The screen with the lines the terminal wrapped joined again: a line longer than the terminal shows whole. */
  lines(): Promise<string[]>;
  waitFor(pattern: RegExp): Promise<string>;
  /** Waits for the command to end and returns its exit code (the session prints it). */
  exitCode(): Promise<number>;
  close(): Promise<void>;
}

let sessions = 0;
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export async function terminal(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; columns?: number; rows?: number },
): Promise<Terminal> {
  // The server's socket lives in the test's own directory, so nothing is left behind in /tmp.
  const socket = join(options.cwd, `tmux-${(sessions += 1)}.sock`);
  const env = cleanEnv({ TERM: 'xterm-256color', ...(options.env ?? {}) });
  delete env.NO_COLOR;
  delete env.COLUMNS;
  const exports = Object.entries(env)
    .filter(([name, value]) => value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map(([name, value]) => `${name}=${quote(value!)}`)
    .join(' ');
  const line = `env -i ${exports} ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}; echo "[exit $?]"; sleep 600`;
  const tmux = (...rest: string[]) => execa('tmux', ['-S', socket, '-f', '/dev/null', ...rest], { cwd: options.cwd });
  await tmux(
    'new-session',
    '-d',
    '-s',
    'main',
    '-x',
    String(options.columns ?? 80),
    '-y',
    String(options.rows ?? 40),
    'bash',
    '--norc',
    '--noprofile',
    '-c',
    line,
  );
  const term: Terminal = {
    keys: async (...keys) => {
      await tmux('send-keys', '-t', 'main', ...keys);
    },
    type: async (text) => {
      await tmux('send-keys', '-t', 'main', '-l', text);
    },
    screen: async () => String((await tmux('capture-pane', '-p', '-t', 'main')).stdout),
    lines: async () => String((await tmux('capture-pane', '-p', '-J', '-t', 'main')).stdout).split('\n'),
    waitFor: async (pattern) => {
      for (let look = 0; look < 600; look++) {
        const shown = await term.screen();
        if (pattern.test(shown)) return shown;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the terminal never showed ${pattern}:\n${await term.screen()}`);
    },
    exitCode: async () => Number(/\[exit (\d+)\]/.exec(await term.waitFor(/\[exit \d+\]/))![1]),
    close: async () => {
      await tmux('kill-server').catch(() => {});
    },
  };
  return term;
}
