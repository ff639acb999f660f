import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cli, createCli } from '../helpers/cli.js';
import { type Terminal, terminal } from '../helpers/terminal.js';

/** `ledger sandbox open` against a running sandbox: the link it prints, and the browser it starts. */
let cli: Cli;
let bin: string;
const opened: Terminal[] = [];

beforeAll(async () => {
  cli = createCli();
  expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
  // A stand-in for the desktop's opener: it writes down what it was asked to open.
  bin = join(cli.dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" >> "${join(cli.dir, 'opened.txt')}"\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
});
afterAll(async () => {
  for (const term of opened) await term.close();
  await cli.run(['sandbox', 'stop']);
  cli.cleanup();
});

const login = (url: string) => fetch(url, { redirect: 'manual' });

/** What the fake opener was given, once it has run (a bounded number of looks). */
async function openedUrls(): Promise<string[]> {
  const file = join(cli.dir, 'opened.txt');
  for (let look = 0; look < 200 && !existsSync(file); look++) await new Promise((resolve) => setTimeout(resolve, 25));
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

/** `ledger sandbox open` at a terminal on a desktop (DISPLAY set, the fake opener first on PATH). */
async function atDesktop(args: string[]): Promise<{ url: string; exitCode: number }> {
  const term = await terminal(['sandbox', 'open', ...args], {
    cwd: cli.dir,
    env: { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0' },
    columns: 200,
  });
  opened.push(term);
  const exitCode = await term.exitCode();
  const url = /https?:\/\/\S+\/login\?token=\S+/.exec(await term.screen())![0];
  return { url, exitCode };
}

describe('ledger sandbox open', () => {
  it('prints a link that logs in once: a second use is refused', async () => {
    const run = await cli.run(['sandbox', 'open']);
    expect(run.exitCode).toBe(0);
    const url = run.stdout.split('\n')[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?token=[A-Za-z0-9_-]{43}$/);
    const first = await login(url);
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toMatch(/^ledger_session=[^;]+; HttpOnly; SameSite=Strict; Path=\/$/);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const overview = await fetch(new URL('/', url), { headers: { cookie } });
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('<h1>Overview</h1>');
    const second = await login(url);
    expect(second.status).toBe(401);
    expect(await second.text()).toContain('ledger sandbox open');
  });

  it('--json prints the API data: the link and when it expires', async () => {
    const data = await cli.json(['sandbox', 'open']);
    expect(Object.keys(data).sort()).toEqual(['expires_at', 'url']);
    expect(Date.parse(data.expires_at)).toBeGreaterThan(Date.now());
  });

  it('opens nothing when stdout is not a terminal, even on a desktop', async () => {
    const run = await cli.run(['sandbox', 'open'], { env: { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0' } });
    expect(run.exitCode).toBe(0);
    expect(existsSync(join(cli.dir, 'opened.txt'))).toBe(false);
  });

  it('with --no-browser at a desktop terminal only prints the link', async () => {
    const { exitCode, url } = await atDesktop(['--no-browser']);
    expect(exitCode).toBe(0);
    expect((await login(url)).status).toBe(303);
    expect(existsSync(join(cli.dir, 'opened.txt'))).toBe(false);
  });

  it('at a desktop terminal hands the link to the browser opener', async () => {
    const { exitCode, url } = await atDesktop([]);
    expect(exitCode).toBe(0);
    expect(await openedUrls()).toEqual([url]);
  });
});
