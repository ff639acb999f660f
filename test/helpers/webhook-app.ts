import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  status: number;
  verified: boolean;
  verifyError?: string;
  body: string;
  signature: string;
}

/**
 * A small receiving application on a loopback port, as a developer would write one: it verifies
 * each delivery with the `standardwebhooks` package and answers from a script of status codes
 * (`failureBody` is what it says with an error status).
 */
export async function startWebhookApp(secret: () => string, script: (n: number) => number | 'hang' | 'redirect' = () => 200, failureBody?: string) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      let verified = false;
      let verifyError: string | undefined;
      try {
        new Webhook(secret()).verify(body, headers);
        verified = true;
      } catch (error) {
        verifyError = (error as Error).message;
      }
      const plan = script(received.length + 1);
      received.push({ id: headers['webhook-id']!, status: typeof plan === 'number' ? plan : 0, verified, ...(verifyError ? { verifyError } : {}), body, signature: headers['webhook-signature']! });
      if (plan === 'hang') return;
      if (plan === 'redirect') {
        response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        return;
      }
      response.writeHead(plan, { 'content-type': 'text/plain' }).end(plan < 300 ? 'ok' : (failureBody ?? `failing on purpose (${plan})`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
