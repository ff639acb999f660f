import type { NarrationAnalyser } from '../engine/intelligence/analyser.js';
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

export interface ConfiguredAnalyser {
  /** For `openSandbox({ analyser })`; undefined for the rules, the engine's default. */
  analyser: NarrationAnalyser | undefined;
  /** Gives the analyser the opened sandbox's database, where its answers are kept. */
  attach(sandbox: Pick<Sandbox, 'db' | 'write'>): void;
}

/**
 * The analyser a sandbox was asked for. A model-backed one keeps each developer's answers in the
 * sandbox's database (table analysis_cache), so a replay, a restart or a seeded run gets the answer it got
 * before; it is made before the sandbox opens and attached to it once open.
 * @example
 * const configured = configureAnalyser(config);
 * const sandbox = await openSandbox({ dbPath, analyser: configured.analyser });
 * configured.attach(sandbox);
 */
export function configureAnalyser(config: AnalyserConfig | undefined): ConfiguredAnalyser {
  if (!config || config.kind === 'rules') return { analyser: undefined, attach: () => {} };
  if (!config.url || !config.model) throw new Error('the openai-compatible analyser needs a URL and a model');
  let sandbox: Pick<Sandbox, 'db' | 'write'> | undefined;
  const analyser = new ModelAnalyser({
    url: config.url,
    model: config.model,
    apiKey: config.apiKey,
    timeoutSeconds: config.timeoutSeconds,
    store: {
      get: async (developerId, key) => (sandbox ? findCachedAnswer(sandbox.db, developerId, key) : undefined),
      // Real time: the cache is bookkeeping of the sandbox, not data on any developer's clock.
      put: async (developerId, key, model, answer) => {
        await sandbox?.write(
          (trx) =>
            saveCachedAnswer(trx, {
              developer_id: developerId,
              key,
              model,
              answer,
              created_at: new Date().toISOString(),
            }),
          developerId,
        );
      },
    },
  });
  return {
    analyser,
    attach: (opened) => {
      sandbox = opened;
    },
  };
}
