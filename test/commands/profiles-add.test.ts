import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runAdd } from '../../src/commands/profiles/add.js';
import { captureIo } from '../helpers/io.js';

const KEY = `svc_test_${'Q'.repeat(28)}7c1d`;
const prompts = vi.hoisted(() => ({
  typed: [] as string[],
  asked: [] as { message: string; mask: unknown; refusals: string[] }[],
}));
vi.mock('@inquirer/prompts', () => ({
  // Each answer typed in turn goes through the prompt's own validation, as @inquirer's does: a refused one is asked again.
  password: async ({
    message,
    mask,
    validate,
  }: {
    message: string;
    mask: unknown;
    validate: (text: string) => true | string;
  }) => {
    const asked = { message, mask, refusals: [] as string[] };
    prompts.asked.push(asked);
    for (const text of prompts.typed) {
      const verdict = validate(text);
      if (verdict === true) return text;
      asked.refusals.push(verdict);
    }
    throw new Error('nothing valid was typed');
  },
}));

let config: string;
beforeEach(() => {
  config = mkdtempSync(join(tmpdir(), 'ledger-profiles-add-'));
  prompts.asked = [];
});
afterEach(() => rmSync(config, { recursive: true, force: true }));

describe('ledger profiles add --api-key-stdin at a terminal', () => {
  it('asks for the key with a masked prompt, asks again while it is not a key (without repeating it), and never prints it', async () => {
    prompts.typed = ['hunter2', `  ${KEY} `];
    const c = captureIo({}, { baseUrl: '', apiKey: '', tty: true, env: { XDG_CONFIG_HOME: config, NO_COLOR: '1' } });
    await runAdd(c.io, 'staging', { baseUrl: 'https://staging.example.com', apiKeyStdin: true });
    expect(prompts.asked).toEqual([
      {
        message: 'API key (svc_test_… or svc_live_…)',
        mask: '*',
        refusals: ['that does not look like an API key (svc_test_… or svc_live_…); it is not shown here'],
      },
    ]);
    expect(readFileSync(join(config, 'ledger', 'config.toml'), 'utf8')).toContain(`api_key = "${KEY}"`);
    expect(c.stdout()).toContain('Key       svc_test_…7c1d\n');
    expect(`${c.stdout()}${c.stderr()}`).not.toMatch(/hunter2|QQQQ/);
  });

  it('with stdin a terminal but stdout not, there is nobody to ask: a usage error, never a wait', async () => {
    const c = captureIo({}, { baseUrl: '', apiKey: '', tty: false, env: { XDG_CONFIG_HOME: config } });
    const io = { ...c.io, stdinIsTTY: true };
    await expect(
      runAdd(io, 'staging', { baseUrl: 'https://staging.example.com', apiKeyStdin: true }),
    ).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/^--api-key-stdin: stdin is a terminal but stdout is not/),
    });
    expect(prompts.asked).toEqual([]);
  });
});
