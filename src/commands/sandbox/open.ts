import { spawn } from 'node:child_process';
import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';

interface DashboardLink {
  url: string;
  expires_at: string;
}

const linkView: View = {
  kind: 'custom',
  quiet: (link: DashboardLink) => link.url,
  lines: (link: DashboardLink, fmt) => [
    link.url,
    fmt.dim(`One use; it expires at ${link.expires_at} (real time), and works on this server only.`),
  ],
};

export function openCommand(): Command {
  return sandboxCommand('open')
    .option('--no-browser', 'print the link only, even where a browser could open it')
    .addHelpText(
      'after',
      '\nThe link logs in once, within 5 minutes, on this server; the session lasts until the sandbox stops. ' +
        'A browser opens only when stdout is a terminal on a desktop (macOS, Windows, or Linux with DISPLAY or ' +
        'WAYLAND_DISPLAY set).' +
        examples('ledger sandbox open', 'ledger sandbox open --no-browser', 'ledger sandbox open --json'),
    )
    .action(action(runOpen));
}

/** The command that opens a URL in the desktop's browser, where there is one. */
export function browserOpener(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): [string, string[]] | undefined {
  if (platform === 'darwin') return ['open', []];
  // `start` takes its first quoted argument as a window title: the empty one keeps the URL a URL.
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""']];
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return ['xdg-open', []];
  return undefined;
}

/**
 * Asks the sandbox for a one-time login link and prints it; on a desktop, with a person at the
 * terminal, opens it too. A link printed into a pipe or a log is never also opened.
 */
export async function runOpen(io: Io, options: { browser?: boolean }): Promise<void> {
  const link = await io.client().sandbox<DashboardLink>('POST', '/sandbox/dashboard/links');
  await io.show(link, linkView, { target: false });
  const opener = browserOpener(process.platform, io.env);
  if (options.browser === false || !io.stdout.isTTY || io.flags.json || io.flags.quiet || !opener) return;
  const [command, args] = opener;
  const child = spawn(command, [...args, link.url], { detached: true, stdio: 'ignore', env: io.env });
  // No browser to open it with is not a failure: the link is printed.
  child.on('error', () => io.note(`Could not start ${command}: open the link above yourself.`));
  child.unref();
}
