/**
 * `sandbox-seeded: true` on the answer of `POST /sandbox/developers` by a seeded sandbox: anyone who
 * knows its seed can derive every id and account number in it, so `developers create` warns that it
 * is not one to share. Here, not in the schemas, so the command reads it without loading zod.
 */
export const SEEDED_HEADER = 'sandbox-seeded';
