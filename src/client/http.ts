import { ApiError, UnreachableError } from './errors.js';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  idempotencyKey?: string | undefined;
}

/**
 * A thin client of /v1 and /sandbox: sends the key, unwraps `{ success, data }`, turns error
 * bodies into ApiError and a dead socket into UnreachableError.
 * @example const wallet = await new ApiClient(url, key).request<Wallet>('GET', `/v1/wallets/${id}`);
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | undefined,
  ) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
    } catch (error) {
      const reason = (error as { cause?: { code?: string; message?: string } }).cause;
      const cause = reason?.code ?? reason?.message ?? String(error);
      throw new UnreachableError(`cannot reach the sandbox at ${this.baseUrl} (${cause}): start it with \`ledger sandbox start\``);
    }
    const text = await response.text();
    let parsed: { success?: boolean; data?: T; detail?: { code?: string; message?: string; fields?: { field: string; message: string }[] } };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError(response.status, 'INVALID_RESPONSE', `${this.baseUrl} answered HTTP ${response.status} with a body that is not JSON: is it a ledger sandbox?`);
    }
    if (!response.ok || parsed.success === false) {
      const detail = parsed.detail ?? {};
      throw new ApiError(response.status, detail.code ?? `HTTP_${response.status}`, detail.message ?? `HTTP ${response.status}`, detail.fields);
    }
    return parsed.data as T;
  }

  /** Calls a /sandbox control; says so clearly when the base URL is not a sandbox. */
  async sandbox<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    try {
      return await this.request<T>(method, path, options);
    } catch (error) {
      const notSandbox =
        error instanceof ApiError &&
        (error.code === 'INVALID_RESPONSE' || error.code === 'HTTP_404' || (error.code === 'NOT_FOUND' && error.message.startsWith('no route')));
      if (!notSandbox) throw error;
      throw new ApiError(error.status, 'NOT_A_SANDBOX', `${this.baseUrl} has no ${path}: this command needs a ledger sandbox, not the live service`);
    }
  }
}
