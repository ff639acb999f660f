import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ownOrigin } from '../plugins/auth.js';

export type ApiAnswer<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; code: string; message: string; requestId: string | undefined };

export type Query = Record<string, string | number | undefined>;

export interface Api {
  get<T>(path: string, query?: Query): Promise<ApiAnswer<T>>;
  /** A write as the page's browser would make it (same origin), for a check a page shows before a person acts. */
  post<T>(path: string, body: unknown): Promise<ApiAnswer<T>>;
}

/**
 * The API as a page's own browser reaches it with its session: the same tenancy, validation and
 * serialization as every other client, and no second copy of them here (decisions: Dashboard).
 */
export function apiFor(app: FastifyInstance, request: FastifyRequest): Api {
  const call = async <T>(method: 'GET' | 'POST', path: string, query: Query, body?: unknown): Promise<ApiAnswer<T>> => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && value !== '') search.set(name, String(value));
    const response = await app.inject({
      method,
      url: search.size ? `${path}?${search}` : path,
      headers: {
        cookie: request.headers.cookie ?? '',
        'x-ledger-dashboard': '1',
        host: request.headers.host ?? 'localhost',
        ...(method === 'POST' ? { origin: ownOrigin(request), 'content-type': 'application/json' } : {}),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    let answer: { data?: T; detail?: { code: string; message: string; request_id?: string } } = {};
    try {
      answer = response.json();
    } catch {
      // not JSON: said below as a refusal without detail
    }
    if (response.statusCode < 300) return { ok: true, status: response.statusCode, data: answer.data as T };
    const header = response.headers['request-id'];
    return {
      ok: false,
      status: response.statusCode,
      code: answer.detail?.code ?? 'INTERNAL_ERROR',
      message: answer.detail?.message ?? `HTTP ${response.statusCode}`,
      requestId: answer.detail?.request_id ?? (typeof header === 'string' ? header : undefined),
    };
  };
  return {
    get: (path, query = {}) => call('GET', path, query),
    post: (path, body) => call('POST', path, {}, body),
  };
}
