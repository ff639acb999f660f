import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A stand-in for a Wallet Ledger Service that is not this sandbox (the live service, or a staging
 * one): HTTPS on 127.0.0.1 with a self-signed certificate (trusted by a test through
 * NODE_EXTRA_CA_CERTS=`caFile`), the seed interface's `/v1` and nothing more, in front of a real
 * sandbox. It takes `svc_live_` keys (each mapped to a sandbox key) and `svc_test_` keys as they are,
 * refuses every `/sandbox` path and every extension of this service (the cross-wallet list, flags and
 * notes, filters beyond the seed's) as a service that does not have them would, and records every
 * request, so a test can prove that nothing was sent when a guard refused.
 */
export interface LiveService {
  url: string;
  /** The certificate to trust (NODE_EXTRA_CA_CERTS). */
  caFile: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The x-api-key it carried, if any. */
  key: string | undefined;
}

/** The seed interface's operations, and the query parameters each takes (the page and the two filters the seed names). */
const SEED: { method: string; path: RegExp; query: string[] }[] = [
  { method: 'POST', path: /^\/v1\/wallets$/, query: [] },
  { method: 'GET', path: /^\/v1\/wallets\/[^/]+$/, query: [] },
  { method: 'POST', path: /^\/v1\/wallets\/[^/]+\/close$/, query: [] },
  { method: 'POST', path: /^\/v1\/wallets\/[^/]+\/transfer$/, query: [] },
  { method: 'GET', path: /^\/v1\/wallets\/[^/]+\/transactions$/, query: ['page', 'limit'] },
  { method: 'GET', path: /^\/v1\/transactions\/[^/]+$/, query: [] },
  { method: 'POST', path: /^\/v1\/wallets\/[^/]+\/agents$/, query: [] },
  { method: 'PATCH', path: /^\/v1\/wallets\/[^/]+\/agents\/[^/]+\/toggle$/, query: [] },
  { method: 'GET', path: /^\/v1\/agents$/, query: ['page', 'limit', 'wallet_id'] },
  { method: 'GET', path: /^\/v1\/suspense$/, query: ['page', 'limit', 'status', 'reason'] },
  { method: 'POST', path: /^\/v1\/suspense\/[^/]+\/resolve$/, query: [] },
  { method: 'GET', path: /^\/v1\/banks$/, query: [] },
  { method: 'POST', path: /^\/v1\/banks\/resolve$/, query: [] },
  { method: 'GET', path: /^\/v1\/webhook-logs$/, query: ['page', 'limit', 'status', 'event_type'] },
  { method: 'POST', path: /^\/v1\/webhook-logs\/[^/]+\/retry$/, query: [] },
];

/** The OpenAPI document such a service publishes: the seed's operations only, with their parameters. */
function openapi(): unknown {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of SEED) {
    const path = operation.path.source
      .replace(/^\^|\$$/g, '')
      .replace(/\\\//g, '/')
      .replace(/\[\^\/\]\+/g, '{id}');
    paths[path] ??= {};
    paths[path]![operation.method.toLowerCase()] = {
      parameters: operation.query.map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
    };
  }
  return { openapi: '3.0.3', info: { title: 'Wallet Ledger Service', version: '1.0.0' }, paths };
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl in `dir`. */
export function selfSigned(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, 'live-cert.pem');
  const keyFile = join(dir, 'live-key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}

const refuse = (status: number, code: string, message: string) =>
  JSON.stringify({ success: false, detail: { code, message } });

/**
 * Starts the service in front of the sandbox at `upstream`; `keys` maps each live key it accepts to
 * the sandbox key it stands for.
 * @example const live = await startLiveService(dir, sandbox.baseUrl, { 'svc_live_…': sandbox.apiKey });
 */
export async function startLiveService(
  dir: string,
  upstream: string,
  keys: Record<string, string>,
): Promise<LiveService> {
  const { certFile, keyFile } = selfSigned(dir);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const key = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined;
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, key });
    const send = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    if (req.method === 'GET' && url.pathname === '/openapi.json') return send(200, JSON.stringify(openapi()));
    const operation = SEED.find((o) => o.method === req.method && o.path.test(url.pathname));
    if (!operation) return send(404, refuse(404, 'NOT_FOUND', `no route ${req.method} ${url.pathname}`));
    const unknown = [...url.searchParams.keys()].find((name) => !operation.query.includes(name));
    if (unknown) return send(400, refuse(400, 'VALIDATION_ERROR', `unknown query parameter ${unknown}`));
    for (const [name, value] of url.searchParams) {
      if ((name === 'status' || name === 'reason' || name === 'event_type') && value.includes(','))
        return send(400, refuse(400, 'VALIDATION_ERROR', `${name} takes one value`));
    }
    const headers = { ...req.headers };
    if (key?.startsWith('svc_live_')) {
      const mapped = keys[key];
      if (!mapped) return send(401, refuse(401, 'UNAUTHORIZED', 'unknown API key'));
      headers['x-api-key'] = mapped;
    }
    delete headers.host;
    const forward = httpRequest(upstream + url.pathname + url.search, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
      answer.pipe(res);
    });
    forward.on('error', () => send(502, refuse(502, 'BAD_GATEWAY', 'upstream failed')));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    caFile: certFile,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
