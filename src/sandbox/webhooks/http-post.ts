import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  status: number;
  /** The first `limit` bytes of the answer, as text. */
  body: string;
}

/** Connections to receivers are kept open between deliveries, as a webhook sender's are. */
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** Why an attempt got no answer: a timeout, or the socket error's code (ECONNREFUSED, ENOTFOUND, …). */
export class NoAnswerError extends Error {}

/**
 * POSTs a webhook and reads at most `limit` bytes of the answer. Redirects are not followed: a
 * 3xx is the answer. Node's own `http` rather than `fetch`: a delivery is one small POST, and
 * fetch's streams and headers objects cost several times the work and garbage per request.
 */
export function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; limit: number; signal?: AbortSignal },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const agent = agents[url.protocol as keyof typeof agents];
    const payload = Buffer.from(body);
    // Aborted (a restore cancels the attempt), its socket is destroyed: the endpoint sees it close.
    const request = client.request(url, {
      method: 'POST',
      agent,
      signal: options.signal,
      headers: { ...headers, 'content-length': String(payload.length) },
    });
    const timer = setTimeout(
      () => request.destroy(new NoAnswerError(`timeout: no answer within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    const fail = (error: Error & { code?: string }) => {
      clearTimeout(timer);
      reject(error instanceof NoAnswerError ? error : new NoAnswerError(error.code ?? error.message));
    };
    request.on('error', fail);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).subarray(0, options.limit).toString('utf8'),
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (size >= options.limit) return;
        chunks.push(chunk);
        size += chunk.length;
        // Enough kept: stop reading a long answer, and do not reuse a connection left mid-body.
        if (size >= options.limit) {
          response.destroy();
          finish();
        }
      });
      response.on('end', finish);
      response.on('error', fail);
    });
    request.end(payload);
  });
}
