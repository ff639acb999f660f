import type { EngineEnv } from './env.js';
import { cryptoIds, type Ids } from './ids.js';

/**
 * Where secrets (API keys, webhook signing secrets) are drawn from: never `env.ids`, which a seed
 * makes anyone who knows the seed able to replay.
 */
export function secretSource(env: EngineEnv): Ids {
  return env.secrets ?? cryptoIds;
}

/**
 * A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes.
 * @example const secret = newWebhookSecret(env); // 'whsec_…'
 */
export function newWebhookSecret(env: EngineEnv): string {
  return `whsec_${secretSource(env).bytes(32).toString('base64')}`;
}
