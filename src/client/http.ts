import type { ClientRequest, IncomingMessage, RequestOptions as NodeRequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { ApiError, UnreachableError, UsageError } from './errors.js';
import { isLoopback } from './loopback.js';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  idempotencyKey?: string | undefined;
  /**
   * For a write without an Idempotency-Key whose answer is cut off: what shows whether it was
   * carried out, and how to repeat it safely (default: look with a `get` or `list` first).
   */
  beforeRepeating?: string;
  /** Told the headers of a successful answer (what the body does not say: `sandbox-seeded`). */
  onHeaders?: (headers: WireResponse['headers']) => void;
}

interface Envelope<T> {
  success?: boolean;
  data?: T;
  detail?: { code?: string; message?: string; fields?: { field: string; message: string }[]; request_id?: string };
}

/** One server-sent event: its `event:` name (default "message") and its `data:` text. */
export interface ServerEvent {
  event: string;
  data: string;
}

/** A request as it goes on the wire: `path` is below the base URL and carries the query string. */
export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** See RequestOptions.beforeRepeating. */
  beforeRepeating?: string | undefined;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * How requests reach the API. By default over `node:http` to the base URL (`httpTransport`); a
 * scenario run hands in one that calls an in-process sandbox's `app.inject()`, so its steps go
 * through the same client code without a socket.
 */
export type Transport = (request: WireRequest) => Promise<WireResponse>;

/**
 * Requests over `node:http` to `baseUrl`, each on its own connection, closed when the answer is
 * read; a dead socket is an UnreachableError (exit code 3). With `tlsFingerprint` (the sandbox state's
 * own https URL), only the certificate of that SHA-256 fingerprint is accepted there.
 * @example const { status, body } = await httpTransport('http://127.0.0.1:4010')({ method: 'GET', path: '/sandbox/health', headers: {} });
 */
export function httpTransport(baseUrl: string, tlsFingerprint?: string, from?: string): Transport {
  return async (request) => {
    const response = await open(baseUrl, request, { pin: tlsFingerprint, from });
    let body: string;
    try {
      body = await readAll(response);
    } catch (error) {
      throw cutOff(baseUrl, request, error as NodeJS.ErrnoException);
    }
    return { status: response.statusCode ?? 0, headers: response.headers, body };
  };
}

/**
 * The connection closed after a request went out and before its whole answer came back (the sandbox
 * was stopped or killed meanwhile). A read can simply be asked again; a write may have been carried
 * out, so the message says so, and how to repeat it without doing it twice: repeating a transfer
 * after "cannot reach the sandbox" would otherwise move the money twice.
 */
function cutOff(baseUrl: string, request: WireRequest, error: NodeJS.ErrnoException): UnreachableError {
  const why = error.code ?? error.message;
  if (request.method === 'GET' || request.method === 'HEAD') {
    return new UnreachableError(
      `the sandbox at ${baseUrl} closed the connection before it answered (${why}): is it still running? (\`ledger sandbox status\`)`,
    );
  }
  const repeat = request.headers['idempotency-key']
    ? 'repeat it with the same --idempotency-key: the sandbox then answers it again without doing it twice'
    : (request.beforeRepeating ?? 'look before you repeat it (its `get` or `list` command shows whether it was made)');
  return new UnreachableError(
    `the sandbox at ${baseUrl} closed the connection before it answered (${why}): the request was sent and may have been carried out; ${repeat}`,
  );
}

export interface ClientOptions {
  /** How requests travel (default: `node:http`, or https, to the base URL). */
  transport?: Transport | undefined;
  /** Told when an answer is a replay (`Idempotent-Replayed: true`): the first answer of the request's Idempotency-Key, nothing done again. */
  onReplay?: (() => void) | undefined;
  /**
   * Runs before every request: a live service's guard refuses or confirms a write here, and a
   * request the server does not offer (an extension it lacks) is refused, before it is sent.
   */
  guard?: ((method: string, path: string, query: RequestOptions['query']) => Promise<void>) | undefined;
  /** The certificate the sandbox state pins for its own https URL (ClientConfig.tlsFingerprint). */
  tlsFingerprint?: string | undefined;
  /** The setting that chose the base URL (ClientConfig.from): when nothing answers there, a stale one is the first suspect. */
  from?: string | undefined;
}

/**
 * A thin client of /v1 and /sandbox: sends the key, unwraps `{ success, data }`, turns error bodies
 * into ApiError and a dead socket into UnreachableError. Over `node:http` by default, every request
 * on its own connection, closed when the answer is read, so a command exits as soon as it has
 * printed (`fetch` kept a pooled socket alive and added about a third of a second to every call).
 * @example const wallet = await new ApiClient(url, key).request<Wallet>('GET', `/v1/wallets/${id}`);
 */
export class ApiClient {
  private readonly transport: Transport;

  private readonly onReplay: (() => void) | undefined;
  private readonly guard: ClientOptions['guard'];
  private readonly tlsFingerprint: string | undefined;
  private readonly from: string | undefined;

  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | undefined,
    options: ClientOptions = {},
  ) {
    this.onReplay = options.onReplay;
    this.guard = options.guard;
    this.tlsFingerprint = options.tlsFingerprint;
    this.from = options.from;
    this.transport = options.transport ?? httpTransport(baseUrl, options.tlsFingerprint, options.from);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    await this.guard?.(method, path, options.query);
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await this.transport({
      method,
      path: withQuery(path, options.query),
      headers: this.headers('application/json', options, body),
      body,
      beforeRepeating: options.beforeRepeating,
    });
    let parsed: Envelope<T>;
    try {
      parsed = JSON.parse(response.body) as Envelope<T>;
    } catch {
      throw new ApiError(
        response.status,
        'INVALID_RESPONSE',
        `${this.baseUrl} answered HTTP ${response.status} with a body that is not JSON: is it a ledger sandbox?`,
      );
    }
    if (response.headers['idempotent-replayed'] === 'true') this.onReplay?.();
    const data = unwrap(parsed, response.status);
    options.onHeaders?.(response.headers);
    return data;
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
   * is thrown like any other, and so is one the server ends the stream with (an `error` event, as
   * when its key is rotated away). Always over `node:http`: a stream needs a socket.
   */
  async stream(
    path: string,
    handlers: { onOpen?: () => void; onEvent: (event: ServerEvent) => void },
    signal: AbortSignal,
  ): Promise<void> {
    let response: IncomingMessage;
    await this.guard?.('GET', path, undefined);
    try {
      response = await open(
        this.baseUrl,
        { method: 'GET', path, headers: this.headers('text/event-stream', {}, undefined) },
        { signal, pin: this.tlsFingerprint, from: this.from },
      );
    } catch (error) {
      if (signal.aborted) return;
      throw notASandbox(error, this.baseUrl, path);
    }
    if (!answers(response, 'text/event-stream')) throw await refusal(response, this.baseUrl, path);
    handlers.onOpen?.();
    // The server ends a stream whose key stopped working with an `error` event: the documented error body.
    let refused: ApiError | undefined;
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
          if (event?.event === 'error') refused = errorOf(JSON.parse(event.data) as Envelope<never>, 401);
          else if (event) handlers.onEvent(event);
        }
      });
      response.on('end', resolve);
      response.on('error', () => resolve());
      response.on('close', resolve);
    });
    if (refused) throw refused;
  }

  /**
   * A file the sandbox sends (`accept` names its media type), written to `destination` on this
   * machine crash-safely (save-file.ts); an error answer is thrown as any other. Resolves with the
   * size written and the answer's headers.
   * @example await client.download('/sandbox/database', 'application/vnd.sqlite3', '/tmp/base.db')
   */
  async download(
    path: string,
    accept: string,
    destination: string,
  ): Promise<{ size: number; headers: IncomingMessage['headers'] }> {
    await this.guard?.('GET', path, undefined);
    const request = { method: 'GET', path, headers: this.headers(accept, {}, undefined) };
    let response: IncomingMessage;
    try {
      response = await open(this.baseUrl, request, { pin: this.tlsFingerprint, from: this.from });
    } catch (error) {
      throw notASandbox(error, this.baseUrl, path);
    }
    if (!answers(response, accept)) throw await refusal(response, this.baseUrl, path);
    const { saveFile } = await import('./save-file.js');
    try {
      return { size: await saveFile(destination, response), headers: response.headers };
    } catch (error) {
      // The file's own failure (open, write, rename: a missing directory, a full disk) is the caller's;
      // anything else is the answer cut off (the sandbox stopped). Either way nothing was written.
      const { syscall } = error as NodeJS.ErrnoException;
      if (typeof syscall === 'string' && syscall !== 'read') throw error;
      throw cutOff(this.baseUrl, request, error as NodeJS.ErrnoException);
    }
  }

  private headers(accept: string, options: RequestOptions, body: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept, connection: 'close' };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return headers;
  }
}

/** `path` with the query's defined values appended. */
function withQuery(path: string, query: RequestOptions['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/** Where the values of the headers a user types come from, for an error that names it. */
const TYPED_HEADERS: Record<string, { from: string; hint: string }> = {
  'idempotency-key': { from: '--idempotency-key', hint: 'use letters, digits, - and _' },
  'x-api-key': {
    from: 'the API key (--api-key or LEDGER_API_KEY)',
    hint: 'was it pasted with quotes or spaces around it?',
  },
};

/**
 * A typed header value that HTTP cannot carry (a control character, or a letter past Latin-1 such as
 * "Ọ"), as a usage error that names it. Node refuses to send it, and that refusal read as an
 * unreachable sandbox (exit 3), which a script would wait for or retry.
 */
function unsendable(request: WireRequest): UsageError | undefined {
  for (const [name, { from, hint }] of Object.entries(TYPED_HEADERS)) {
    const bad = /[^\t\x20-\x7e\x80-\xff]/u.exec(request.headers[name] ?? '')?.[0];
    if (bad === undefined) continue;
    const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    const what = /[\x00-\x1f\x7f]/.test(bad) ? `a control character (${code})` : `"${bad}" (${code})`;
    return new UsageError(`${from}: ${what} cannot be sent in an HTTP header; ${hint}`);
  }
  return undefined;
}

/**
 * Sends one request over `node:http` (https for an https base URL) and resolves with the answer's
 * head. `pin`: the SHA-256 fingerprint of the only certificate accepted (see `pinned`).
 */
async function open(
  baseUrl: string,
  request: WireRequest,
  { signal, pin, from }: { signal?: AbortSignal | undefined; pin?: string | undefined; from?: string | undefined } = {},
): Promise<IncomingMessage> {
  const refused = unsendable(request);
  if (refused) throw refused;
  const url = new URL(baseUrl + request.path);
  const secure = url.protocol === 'https:';
  // https is loaded only for an https base URL: TLS costs start-up time nobody on loopback needs.
  const send = secure ? (await import('node:https')).request : httpRequest;
  const nodeOptions: NodeRequestOptions = {
    method: request.method,
    headers: request.headers,
    ...(signal ? { signal } : {}),
  };
  // Without an agent a request makes its own connection, closed after the answer (`pinned`'s, when pinned).
  if (secure && pin)
    nodeOptions.createConnection = pinned(
      await import('node:tls'),
      url,
      pin,
      baseUrl,
    ) as unknown as NodeRequestOptions['createConnection'];
  else nodeOptions.agent = false;
  return new Promise<IncomingMessage>((resolve, reject) => {
    let req: ClientRequest;
    try {
      req = send(url, nodeOptions, resolve);
    } catch (error) {
      reject(new UnreachableError(`cannot reach the sandbox at ${where(baseUrl, from)} (${(error as Error).message})`));
      return;
    }
    // Whether the request reached the connection: an error after that is not "nothing listens".
    // Over TLS that is once the handshake is done: a certificate refused before it sent nothing.
    let sent = false;
    req.on('socket', (socket) => {
      if (secure && pin) sent = true;
      else socket.once(secure ? 'secureConnect' : 'connect', () => (sent = true));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (signal?.aborted || error instanceof UsageError) reject(error);
      else if (secure && !sent && CERTIFICATE_ERROR.test(error.code ?? '')) reject(untrusted(baseUrl, error));
      else if (sent) reject(cutOff(baseUrl, request, error));
      else reject(notReached(baseUrl, url.hostname, error, from));
    });
    req.end(request.body);
  });
}

/** The codes of Node's refusals of a server's certificate (an unknown issuer, another name, expired). */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY)/;

/** A certificate nobody here trusts: what a teammate's self-signed sandbox needs on this machine. */
function untrusted(baseUrl: string, error: NodeJS.ErrnoException): UsageError {
  return new UsageError(
    `the certificate of ${baseUrl} is not accepted (${error.code}: ${error.message}); nothing was sent. ` +
      `If it is a shared sandbox's self-signed certificate, ` +
      `trust it with NODE_EXTRA_CA_CERTS=<a copy of its cert.pem>`,
    'CERTIFICATE_UNTRUSTED',
  );
}

/**
 * The connection of a request to this folder's own TLS sandbox: it carries the request only once
 * the server has shown the certificate whose SHA-256 fingerprint the state file holds. That check
 * replaces the trust store's and the name's: the sandbox's certificate is often self-signed and
 * issued to the machine's name, not 127.0.0.1. Nothing else is accepted in its place.
 */
function pinned(tls: typeof import('node:tls'), url: URL, pin: string, baseUrl: string) {
  return (_options: unknown, done: (error: Error | null, socket?: import('node:tls').TLSSocket) => void): undefined => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A name (not an address) goes in the handshake, as a browser sends it.
    const ip = host.includes(':') || /^[\d.]+$/.test(host);
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      rejectUnauthorized: false,
      ...(ip ? {} : { servername: host }),
    });
    const failed = (error: Error) => done(error);
    socket.once('error', failed);
    socket.once('secureConnect', () => {
      socket.off('error', failed);
      const seen = socket.getPeerCertificate().fingerprint256;
      if (fingerprintsMatch(seen, pin)) {
        done(null, socket);
        return;
      }
      socket.destroy();
      done(
        new UsageError(
          `${baseUrl} presented a certificate (SHA-256 ${seen}) ` +
            `other than the one the sandbox state pins (${pin}), ` +
            `so something other than the sandbox started from this folder answers there; nothing was sent. ` +
            `Start this folder's sandbox again (\`ledger sandbox start --detach\`), ` +
            `or set LEDGER_BASE_URL and LEDGER_API_KEY for the one you mean`,
          'CERTIFICATE_MISMATCH',
        ),
      );
    });
    return undefined;
  };
}

/** Fingerprints compared as hex, whatever their case or separators. */
const fingerprintsMatch = (a: string | undefined, b: string) =>
  a !== undefined && a.replace(/[^0-9a-f]/gi, '').toLowerCase() === b.replace(/[^0-9a-f]/gi, '').toLowerCase();

/**
 * Nothing answered: a sandbox on this machine is started with a command; a service elsewhere is not.
 * The setting that chose the URL is named, since a stale one (an old LEDGER_BASE_URL) is the usual cause.
 */
function notReached(
  baseUrl: string,
  host: string,
  error: NodeJS.ErrnoException,
  from: string | undefined,
): UnreachableError {
  const why = error.code ?? error.message;
  if (isLoopback(host))
    return new UnreachableError(
      `cannot reach the sandbox at ${where(baseUrl, from)} (${why}): start it with \`ledger sandbox start --detach\``,
    );
  return new UnreachableError(`cannot reach ${where(baseUrl, from)} (${why}): check the URL and your network`);
}

/** The base URL with the setting that chose it, as the other messages about it name it (`… (from LEDGER_BASE_URL)`). */
const where = (baseUrl: string, from: string | undefined) => (from ? `${baseUrl} (from ${from})` : baseUrl);

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
    // Closed before the end of the body (`end` never comes): a cut-off answer, not a hang.
    response.on('close', () => {
      if (!response.complete) reject(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
    });
  });
}

/** Whether a streamed answer is a success of the media type asked for. */
const answers = (response: IncomingMessage, type: string) =>
  (response.statusCode ?? 0) < 300 && String(response.headers['content-type']).startsWith(type);

/** The error a streamed answer that is not the one asked for carries (its JSON error body, else its status). */
async function refusal(response: IncomingMessage, baseUrl: string, path: string): Promise<unknown> {
  let parsed: Envelope<never> = {};
  try {
    parsed = JSON.parse(await readAll(response)) as Envelope<never>;
  } catch {
    // not JSON: reported by status
  }
  return notASandbox(errorOf(parsed, response.statusCode ?? 0), baseUrl, path);
}

function errorOf(parsed: Envelope<unknown>, status: number): ApiError {
  const detail = parsed.detail ?? {};
  return new ApiError(
    status,
    detail.code ?? `HTTP_${status}`,
    detail.message ?? `HTTP ${status}`,
    detail.fields,
    typeof detail.request_id === 'string' ? detail.request_id : undefined,
  );
}

function unwrap<T>(parsed: Envelope<T>, status: number): T {
  if (status < 200 || status >= 300 || parsed.success === false) throw errorOf(parsed, status);
  return parsed.data as T;
}

/** A /sandbox path that the server does not have: the base URL is not a ledger sandbox. */
function notASandbox(error: unknown, baseUrl: string, path: string): unknown {
  const missing =
    error instanceof ApiError &&
    (error.code === 'INVALID_RESPONSE' ||
      error.code === 'HTTP_404' ||
      (error.code === 'NOT_FOUND' && error.message.startsWith('no route')));
  if (!missing) return error;
  return new ApiError(
    error.status,
    'NOT_A_SANDBOX',
    `${baseUrl} has no ${path}: this command needs a ledger sandbox, not the live service`,
  );
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
