import { requestRules } from '../api/rules.js';

/**
 * The request rules of src/api/schemas as data. In the source tree (type-checking, tests) they are
 * computed from the zod schemas; `npm run build` replaces the compiled file with the computed data
 * (scripts/after-build.js), so the built command line checks its flags without loading zod.
 */
export const RULES = requestRules();
