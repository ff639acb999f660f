import { findCachedAnswer, saveCachedAnswer } from '../engine/intelligence/analysis-cache.repository.js';
import { ModelAnalyser } from '../engine/intelligence/model-analyser.js';
import type { Sandbox } from './sandbox.js';

/** Which analyser reads inbound narrations (`sandbox start --analyser`). */
export interface AnalyserConfig {
  kind: 'rules' | 'openai-compatible';
  /** Base URL of the OpenAI-compatible API, such as http://127.0.0.1:11434/v1. */
  url?: string | undefined;
  model?: string | undefined;
  apiKey?: string | undefined;
  timeoutSeconds?: number | undefined;
}

/**
 * Gives the sandbox a model-backed analyser whose answers are kept in its database (table
 * analysis_cache), so a replay, a restart or a seeded run gets the answer it got before. The rules
 * analyser needs nothing: it is the engine's default.
 * @example installAnalyser(sandbox, { kind: 'openai-compatible', url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
 */
export function installAnalyser(sandbox: Sandbox, config: AnalyserConfig | undefined): void {
  if (!config || config.kind === 'rules') return;
  if (!config.url || !config.model) throw new Error('the openai-compatible analyser needs a URL and a model');
  sandbox.env.analyser = new ModelAnalyser({
    url: config.url,
    model: config.model,
    apiKey: config.apiKey,
    timeoutSeconds: config.timeoutSeconds,
    store: {
      get: (key) => findCachedAnswer(sandbox.db, key),
      // Real time: the cache is bookkeeping of the process, not sandbox data on anyone's clock.
      put: (key, model, answer) => sandbox.write((trx) => saveCachedAnswer(trx, { key, model, answer, created_at: new Date().toISOString() })),
    },
  });
}
