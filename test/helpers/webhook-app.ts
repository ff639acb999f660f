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
export async function startWebhookApp(
  secret: () => string,
  script: (n: number) => number | 'hang' | 'redirect' = () => 200,
  failureBody?: string,
) {
  const received: Received[] = [];
  /** The webhook-ids of deliveries left hanging whose connection the sender closed. */
  const abandoned: string[] = [];
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
      received.push({
        id: headers['webhook-id']!,
        status: typeof plan === 'number' ? plan : 0,
        verified,
        ...(verifyError ? { verifyError } : {}),
        body,
        signature: headers['webhook-signature']!,
      });
      if (plan === 'hang') {
        request.socket.once('close', () => abandoned.push(headers['webhook-id']!));
        return;
      }
      if (plan === 'redirect') {
        response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        return;
      }
      response
        .writeHead(plan, { 'content-type': 'text/plain' })
        .end(plan < 300 ? 'ok' : (failureBody ?? `failing on purpose (${plan})`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Developer B of sandbox `s`, its deliveries going to an endpoint that accepts the first one and
 * never answers it (then answers 200), with a wallet whose credit has a delivery waiting (not attempted).
 * @example const b = await developerWithHangingEndpoint(s); s.call('POST', '/sandbox/clock/advance', { seconds: 1 }, { key: b.key });
 */
export async function developerWithHangingEndpoint(s: {
  call: (
    method: string,
    url: string,
    body?: unknown,
    opts?: { key?: string },
  ) => Promise<{ status: number; body: any }>;
}) {
  const { api_key: key } = (await s.call('POST', '/sandbox/developers', { business_name: 'B' })).body.data;
  const secret: string = (await s.call('GET', '/sandbox/webhook-endpoint', undefined, { key })).body.data.secret;
  const endpoint = await startWebhookApp(
    () => secret,
    (n) => (n === 1 ? 'hang' : 200),
  );
  await s.call('PUT', '/sandbox/webhook-endpoint', { url: endpoint.url }, { key });
  const wallet = (
    await s.call(
      'POST',
      '/v1/wallets',
      { customer_reference: 'b-1', first_name: 'Bola', last_name: 'Ade', email: 'bola@example.com' },
      { key },
    )
  ).body.data;
  const credit = await s.call(
    'POST',
    '/sandbox/inbound-transfers',
    { account_number: wallet.account_number, amount: 5_000 },
    { key },
  );
  if (credit.status !== 200) throw new Error(`credit failed: ${JSON.stringify(credit.body)}`);
  return { key, endpoint };
}

/** `promise`'s value, or 'still waiting' once `ms` have passed: for a call that must not wait on an endpoint. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
