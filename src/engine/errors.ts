/** Every failure the ledger reports on purpose. Anything else is a bug and becomes INTERNAL_ERROR. */
export type LedgerErrorCode =
  | 'UNAUTHORIZED'
  | 'VALIDATION_ERROR'
  | 'INVALID_JSON'
  | 'UNSUPPORTED_CURRENCY'
  | 'INVALID_BANK_CODE'
  | 'NOT_FOUND'
  | 'TRANSFERS_DISABLED'
  | 'DUPLICATE_CUSTOMER_REFERENCE'
  | 'WALLET_CLOSED'
  | 'SUSPENSE_ALREADY_RESOLVED'
  | 'WEBHOOK_NOT_RETRYABLE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'INSUFFICIENT_FUNDS'
  | 'ACCOUNT_NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'FORBIDDEN'
  | 'FORBIDDEN_ORIGIN'
  | 'SNAPSHOT_INVALID'
  | 'URI_TOO_LONG'
  | 'HEADERS_TOO_LARGE'
  | 'STORAGE_FULL'
  | 'STORAGE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

export interface FieldProblem {
  field: string;
  message: string;
}

export class LedgerError extends Error {
  override readonly name = 'LedgerError';

  constructor(
    readonly code: LedgerErrorCode,
    message: string,
    readonly fields?: FieldProblem[],
  ) {
    super(message);
  }
}

/** A validation failure on one named field. */
export function invalidField(field: string, message: string): LedgerError {
  return new LedgerError('VALIDATION_ERROR', `${field}: ${message}`, [{ field, message }]);
}

export function notFound(kind: string): LedgerError {
  return new LedgerError('NOT_FOUND', `${kind} not found`);
}
