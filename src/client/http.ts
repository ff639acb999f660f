import type { ClientRequest, IncomingMessage, RequestOptions as NodeRequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { ApiError, UnreachableError } from './errors.js';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  idempotencyKey?: string | undefined;
}

interface Envelope<T> {
  success?: boolean;
  data?: T;
  detail?: { code?: string; message?: string; fields?: { field: string; message: string }[] };
}

/** One server-sent event: its `event:` name (default "message") and its `data:` text. */
export interface ServerEvent {
  event: string;
  data: string;
}

/**
 * A thin client of /v1 and /sandbox over `node:http`: sends the key, unwraps `{ success, data }`,
 * turns error bodies into ApiError and a dead socket into UnreachableError. Every request has its
 * own connection, closed when the answer is read, so a command exits as soon as it has printed
 * (`fetch` kept a pooled socket alive and added about a third of a second to every call).
 * @example const wallet = await new ApiClient(url, key).request<Wallet>('GET', `/v1/wallets/${id}`);
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | undefined,
  ) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await this.send(method, path, options, payload, 'application/json');
    const text = await readAll(response);
    let parsed: Envelope<T>;
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new ApiError(response.statusCode ?? 0, 'INVALID_RESPONSE', `${this.baseUrl} answered HTTP ${response.statusCode} with a body that is not JSON: is it a ledger sandbox?`);
    }
    return unwrap(parsed, response.statusCode ?? 0);
  }

  /** Calls a /sandbox control; says so clearly when the base URL is not a sandbox. */
  async sandbox<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    try {
      return await this.request<T>(method, path, options);
    } catch (error) {
      throw notASandbox(error, this.baseUrl, path);
    }
  }

  /**
   * Follows a server-sent event stream until `signal` aborts or the server ends it; `onOpen` runs once
   * the server has accepted it, `onEvent` for each event as it arrives. An error answer (401, 404…)
   * is thrown like any other.
   */
  async stream(path: string, handlers: { onOpen?: () => void; onEvent: (event: ServerEvent) => void }, signal: AbortSignal): Promise<void> {
    let response: IncomingMessage;
    try {
      response = await this.send('GET', path, {}, undefined, 'text/event-stream', signal);
    } catch (error) {
      if (signal.aborted) return;
      throw notASandbox(error, this.baseUrl, path);
    }
    if ((response.statusCode ?? 0) >= 300 || !String(response.headers['content-type']).startsWith('text/event-stream')) {
      let parsed: Envelope<never> = {};
      try {
        parsed = JSON.parse(await readAll(response)) as Envelope<never>;
      } catch {
        // not JSON: reported by status below
      }
      throw notASandbox(errorOf(parsed, response.statusCode ?? 0), this.baseUrl, path);
    }
    handlers.onOpen?.();
    await new Promise<void>((resolve) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = parseEvent(block);
          if (event) handlers.onEvent(event);
        }
      });
      response.on('end', resolve);
      response.on('error', () => resolve());
      response.on('close', resolve);
    });
  }

  private async send(method: string, path: string, options: RequestOptions, payload: string | undefined, accept: string, signal?: AbortSignal): Promise<IncomingMessage> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept, connection: 'close' };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    // https is loaded only for an https base URL: TLS costs start-up time nobody on loopback needs.
    const open = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
    const nodeOptions: NodeRequestOptions = { method, headers, agent: false, ...(signal ? { signal } : {}) };
    return new Promise<IncomingMessage>((resolve, reject) => {
      let req: ClientRequest;
      try {
        req = open(url, nodeOptions, resolve);
      } catch (error) {
        reject(new UnreachableError(`cannot reach the sandbox at ${this.baseUrl} (${(error as Error).message})`));
        return;
      }
      req.on('error', (error: NodeJS.ErrnoException) => {
        reject(
          signal?.aborted
            ? error
            : new UnreachableError(`cannot reach the sandbox at ${this.baseUrl} (${error.code ?? error.message}): start it with \`ledger sandbox start\``),
        );
      });
      req.end(payload);
    });
  }
}

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}

function errorOf(parsed: Envelope<unknown>, status: number): ApiError {
  const detail = parsed.detail ?? {};
  return new ApiError(status, detail.code ?? `HTTP_${status}`, detail.message ?? `HTTP ${status}`, detail.fields);
}

function unwrap<T>(parsed: Envelope<T>, status: number): T {
  if (status < 200 || status >= 300 || parsed.success === false) throw errorOf(parsed, status);
  return parsed.data as T;
}

/** A /sandbox path that the server does not have: the base URL is not a ledger sandbox. */
function notASandbox(error: unknown, baseUrl: string, path: string): unknown {
  const missing =
    error instanceof ApiError &&
    (error.code === 'INVALID_RESPONSE' || error.code === 'HTTP_404' || (error.code === 'NOT_FOUND' && error.message.startsWith('no route')));
  if (!missing) return error;
  return new ApiError(error.status, 'NOT_A_SANDBOX', `${baseUrl} has no ${path}: this command needs a ledger sandbox, not the live service`);
}

function parseEvent(block: string): ServerEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { event, data: data.join('\n') } : undefined;
}
