/**
 * The NUBAN check-digit rule and the magic accounts of name enquiry, for the command line to explain
 * an ACCOUNT_NOT_FOUND (a mistyped number) without a second copy of either. Both modules are plain
 * functions and data with no imports.
 */
export { isValidNubanForCode } from '../engine/wallets/nuban.js';
export { magicAccount } from '../engine/banks/magic.js';
