import type { EngineEnv } from './env.js';

/** NIP institution code of the virtual-account bank, the first six digits of its session ids. */
const INSTITUTION_CODE = '000017';

/**
 * A 30-digit NIP session id: institution code, yyMMddHHmmss on the sandbox clock, 12 random digits.
 * @example nipSessionId(env) // '000017261121093000123456789012'
 */
export function nipSessionId(env: EngineEnv): string {
  const stamp = env.clock.now().toISOString().replace(/\D/g, '').slice(2, 14);
  return `${INSTITUTION_CODE}${stamp}${env.ids.digits(12)}`;
}
