/** Documented exit codes (decisions: CLI); 130 is a person pressing Ctrl-C at a question, as shells report SIGINT. */
export const EXIT = { OK: 0, REFUSED: 1, USAGE: 2, UNREACHABLE: 3, CANCELLED: 130 } as const;

/** The API answered with an error body (exit code 1). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: { field: string; message: string }[],
    /** The id of the request the server refused (its `detail.request_id`), for support to find it in the request log. */
    readonly requestId?: string,
  ) {
    super(message);
  }

  /** The same refusal of the same request in other words: its status and request id kept, so support can still find it. */
  reworded(message: string, change: { fields?: ApiError['fields']; code?: string } = {}): ApiError {
    const fields = 'fields' in change ? change.fields : this.fields;
    return new ApiError(this.status, change.code ?? this.code, message, fields, this.requestId);
  }
}

/** Nothing answered at the base URL, or there is no sandbox to talk to (exit code 3). */
export class UnreachableError extends Error {
  constructor(
    message: string,
    readonly code: 'UNREACHABLE' | 'NO_SANDBOX' = 'UNREACHABLE',
  ) {
    super(message);
  }
}

/**
 * The command line or its configuration is wrong: a missing or malformed value, or a setting that
 * is refused before anything is sent (exit code 2). `code` names the kind where USAGE says too little.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code: string = 'USAGE',
  ) {
    super(message);
  }
}

/** The server lacks an extension the command needs, and the seed interface cannot stand in (exit code 2, before anything is sent). */
export class UnsupportedError extends UsageError {
  constructor(message: string) {
    super(message, 'UNSUPPORTED');
  }
}

/** The start of an id that names several records (exit code 2): the message, then a line for each candidate. */
export class AmbiguousError extends UsageError {
  constructor(
    message: string,
    readonly candidates: string[],
  ) {
    super(message, 'AMBIGUOUS');
  }
}
