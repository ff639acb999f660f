import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCli, useSandboxCli } from '../helpers/cli.js';
import { GOOD_ANSWER, startFakeModel, type FakeModel } from '../helpers/fake-model.js';

describe('ledger sandbox analyse', () => {
  const cli = useSandboxCli();

  it('prints the analysis with its explanation and where the payment would go, moving no money', async () => {
    const r = await cli.run(['sandbox', 'analyse', 'asdfgh SANDBOX-RISK']);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      [
        'Intent      unknown (Uncategorised)',
        'Confidence  0.3',
        'Flags       SUSPECTED_FRAUD, UNCLEAR_NARRATION',
        'Would be    SUSPENDED: AI_RISK_FLAG (FLAGGED)',
        'Analyser    rules',
        'Why:',
        '  · unreadable: "asdfgh" (a keyboard run)',
        '  · SANDBOX-RISK marker: SUSPECTED_FRAUD',
        '',
      ].join('\n'),
    );
    const data = await cli.json(['sandbox', 'analyse', 'thank you', '--prompt', 'Church offerings only.']);
    expect(data).toEqual({
      service_intelligence: {
        raw_narration: 'thank you',
        extracted_intent: 'gift',
        confidence_score: 0.75,
        flags: ['UNEXPECTED_FOR_WALLET'],
        suggested_label: 'Gift',
        explanation: ['matched THANK YOU, THANK → gift (score 5)', 'system prompt expects only donation: -0.2'],
      },
      instruction: {
        rules: [
          {
            kind: 'expect',
            action: 'expect',
            text: 'Church offerings only',
            purposes: ['donation'],
            words: ['CHURCH', 'OFFERING'],
            only: true,
          },
        ],
        not_understood: [],
      },
      outcome: 'CREDITED',
      suspense_reason: null,
      suspense_status: null,
      analyser: 'rules',
    });
    expect((await cli.run(['sandbox', 'analyse', '', '--quiet'])).stdout).toBe('AI_LOW_CONFIDENCE\n');
    expect((await cli.json(['sandbox', 'audit'])).checked.transactions).toBe(0);
  });

  it('--prompt without a narration prints the rules the prompt is read into, and what it did not understand', async () => {
    const prompt = 'Max ₦30 per payment, hold anything more. Only school fees; hold the others. Be nice.';
    const r = await cli.run(['sandbox', 'analyse', '--prompt', prompt]);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      [
        'Rules:',
        '  · hold_above (review): above 3000 (₦30.00)  "Max ₦30 per payment, hold anything more"',
        '  · expect (expect): school_fees; only  "Only school fees"',
        '  · only_purposes (review): school_fees  "hold the others"',
        '  ? not understood, holds nothing: "Be nice"',
        '',
      ].join('\n'),
    );
    expect(await cli.json(['sandbox', 'analyse', '--prompt', 'Hold every payment for manual review'])).toEqual({
      rules: [{ kind: 'hold_all', action: 'review', text: 'Hold every payment for manual review' }],
      not_understood: [],
    });
    expect((await cli.run(['sandbox', 'analyse', '--prompt', prompt, '-q'])).stdout).toBe(
      'hold_above\nexpect\nonly_purposes\n',
    );
    const held = await cli.run(['sandbox', 'analyse', 'sch fees', '--prompt', prompt, '--amount', '3001']);
    expect(held.stdout).toContain(
      [
        'Would be    SUSPENDED: AI_RISK_FLAG (FLAGGED)',
        'Analyser    rules',
        'Rules:',
        '  · hold_above (review): above 3000 (₦30.00)  "Max ₦30 per payment, hold anything more"',
      ].join('\n'),
    );
    expect(held.stdout).toContain('  · instruction not understood: Be nice\n');
  });

  it("reads a wallet's prompt and amount limits, and refuses bad input with the documented exit codes", async () => {
    const wallet = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'an-1',
        '--first-name',
        'Ana',
        '--last-name',
        'Lyse',
        '--email',
        'an@x.ng',
        '--system-prompt',
        'Collects rent. Review any payment above 2,000,000 naira.',
        '-q',
      ])
    ).stdout.trim();
    expect(
      (await cli.run(['sandbox', 'analyse', 'rent', '--wallet', wallet, '--amount', '300000000', '-q'])).stdout,
    ).toBe('AI_RISK_FLAG\n');
    expect(
      (await cli.run(['sandbox', 'analyse', 'rent', '--wallet', wallet, '--amount', '100000000', '-q'])).stdout,
    ).toBe('CREDITED\n');
    const usage = await cli.run(['sandbox', 'analyse', 'rent', '--amount', 'lots']);
    expect([usage.exitCode, usage.stderr]).toEqual([
      2,
      'Error [USAGE]: --amount "lots" must be a whole number of kobo, digits only (500000 is ₦5,000.00)\n',
    ]);
    const missing = await cli.run(['sandbox', 'analyse', 'rent', '--wallet', 'nope']);
    expect([missing.exitCode, missing.stderr]).toEqual([
      1,
      'Error [NOT_FOUND]: wallet not found (request req_00000012)\n',
    ]);
    const both = await cli.run(['sandbox', 'analyse', 'rent', '--wallet', wallet, '--prompt', 'rent']);
    expect([both.exitCode, both.stderr]).toEqual([2, 'Error [USAGE]: give --prompt or --wallet, not both\n']);
    expect((await cli.run(['sandbox', 'analyse'])).exitCode).toBe(2);
    expect((await cli.json(['wallets', 'get', wallet])).balance).toBe(0);
  });
});

describe('sandbox start --analyser openai-compatible', () => {
  let model: FakeModel;
  beforeAll(async () => {
    model = await startFakeModel();
  });
  afterAll(() => model.close());

  it('reads inbound narrations with the model, through flags or environment variables, and falls back when it fails', async () => {
    for (const how of ['flags', 'env'] as const) {
      const cli = createCli();
      try {
        const flags = ['--analyser', 'openai-compatible', '--analyser-url', model.url, '--analyser-model', 'fake-llm'];
        const env = {
          LEDGER_ANALYSER: 'openai-compatible',
          LEDGER_ANALYSER_URL: model.url,
          LEDGER_ANALYSER_MODEL: 'fake-llm',
          LEDGER_ANALYSER_API_KEY: 'sk-local',
        };
        // On a database file, so what the sandbox keeps (database, state, log) can be searched for the key.
        const start = await cli.run(
          ['sandbox', 'start', '--detach', '--port', '0', ...(how === 'flags' ? flags : [])],
          how === 'env' ? { env } : {},
        );
        expect(start.exitCode).toBe(0);
        model.mode = 'good';
        model.answer = { ...GOOD_ANSWER, explanation: `asked through ${how}` };
        const wallet = (
          await cli.run([
            'wallets',
            'create',
            '--customer-reference',
            'm',
            '--first-name',
            'Mo',
            '--last-name',
            'Del',
            '--email',
            'mo@x.ng',
            '-q',
          ])
        ).stdout.trim();
        const credit = await cli.json(['credit', wallet, '5000', '--narration', `sch fees ${how}`]);
        expect(credit.transaction.service_intelligence).toEqual({
          ...GOOD_ANSWER,
          raw_narration: `sch fees ${how}`,
          explanation: [`model fake-llm: asked through ${how}`],
        });
        const shown = await cli.run(['sandbox', 'analyse', `sch fees ${how}`]);
        expect(shown.stdout).toContain('Analyser    openai-compatible (fake-llm)\n');
        model.mode = 'error';
        const held = await cli.json(['credit', wallet, '5000', '--narration', 'asdfgh']);
        expect(held.suspense_item.reason).toBe('AI_LOW_CONFIDENCE');
        expect(held.suspense_item.service_intelligence.explanation[0]).toBe(
          'model fake-llm answered HTTP 500: the rules analyser answered instead',
        );
        expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
        expect((await cli.run(['sandbox', 'stop'])).exitCode).toBe(0);
        const kept = readdirSync(cli.dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
        expect(kept.map((entry) => entry.name)).toContain('sandbox.db');
        for (const entry of kept)
          expect(readFileSync(join(entry.parentPath, entry.name)).includes('sk-local'), entry.name).toBe(false);
      } finally {
        await cli.run(['sandbox', 'stop']);
        cli.cleanup();
      }
    }
    expect(model.requests.filter((r) => r.authorization === 'Bearer sk-local').length).toBeGreaterThan(0);
  });

  it('refuses incomplete analyser settings as a usage error (exit 2), before starting anything', async () => {
    const cli = createCli();
    try {
      const cases: [string[], string][] = [
        [['--analyser', 'gpt'], 'Error [USAGE]: --analyser must be rules or openai-compatible, not "gpt"\n'],
        [
          ['--analyser', 'openai-compatible', '--analyser-model', 'm'],
          'Error [USAGE]: --analyser openai-compatible needs --analyser-url, an http or https URL such as http://127.0.0.1:11434/v1\n',
        ],
        [
          ['--analyser', 'openai-compatible', '--analyser-url', 'http://127.0.0.1:1/v1'],
          'Error [USAGE]: --analyser openai-compatible needs --analyser-model, the name of the model to ask\n',
        ],
        [
          ['--analyser-url', 'http://127.0.0.1:1/v1'],
          'Error [USAGE]: --analyser-url, --analyser-model and --analyser-timeout go with --analyser openai-compatible\n',
        ],
        [
          [
            '--analyser',
            'openai-compatible',
            '--analyser-url',
            'http://127.0.0.1:1/v1',
            '--analyser-model',
            'm',
            '--analyser-timeout',
            '0',
          ],
          'Error [USAGE]: --analyser-timeout must be a number of seconds, above 0 and at most 120\n',
        ],
      ];
      for (const [args, stderr] of cases) {
        const r = await cli.run(['sandbox', 'start', '--memory', '--port', '0', ...args]);
        expect([r.exitCode, r.stderr, r.stdout]).toEqual([2, stderr, '']);
      }
    } finally {
      cli.cleanup();
    }
  });
});
