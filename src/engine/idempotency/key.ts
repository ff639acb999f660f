/**
 * An Idempotency-Key's format (decisions: Idempotency): 1 to 255 characters, anything else is 400 on the
 * header. Imports nothing, so the request schemas (api/schemas/common.ts) take the same bounds.
 */
export const KEY_MIN_LENGTH = 1;
export const KEY_MAX_LENGTH = 255;
export const KEY_LENGTH_RULE = `must be ${KEY_MIN_LENGTH} to ${KEY_MAX_LENGTH} characters`;

/** Why a key cannot be used, as the message on its field, or undefined for a good one. */
export function keyProblem(key: string): string | undefined {
  return key.length < KEY_MIN_LENGTH || key.length > KEY_MAX_LENGTH ? KEY_LENGTH_RULE : undefined;
}
