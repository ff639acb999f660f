import { request as httpsRequest } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../src/sandbox/dashboard/api.js';
import { html } from '../../src/sandbox/dashboard/html.js';
import { request as requestPage, requests } from '../../src/sandbox/dashboard/pages/requests.js';
import { openServer } from '../../src/sandbox/server.js';
import { checkTls } from '../../src/sandbox/tls-options.js';
import { makeCertificate } from '../helpers/tls.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

let realTime = Date.parse('2026-11-21T09:30:00Z');
const t = useSandbox({ realNow: () => realTime });
const HOST = 'sandbox.test:4010';
const ORIGIN = `http://${HOST}`;

/** A login link as `ledger sandbox open` asks for it. */
async function link(key?: string): Promise<{ url: string; expires_at: string }> {
  const made = await t.call('POST', '/sandbox/dashboard/links', undefined, {
    ...(key ? { key } : {}),
    headers: { host: HOST },
  });
  expect(made.status).toBe(201);
  return made.body.data;
}

const visit = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });

/** Logs in with a fresh link; the session cookie as a browser sends it back. */
async function login(key?: string): Promise<string> {
  const { url } = await link(key);
  const response = await visit(new URL(url).pathname + new URL(url).search);
  expect(response.statusCode).toBe(303);
  return String(response.headers['set-cookie']).split(';')[0]!;
}

/** The API as the dashboard's script calls it. */
const fromPage = (method: string, url: string, cookie: string, headers: Record<string, string> = {}, body?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: {
      host: HOST,
      cookie,
      'x-ledger-dashboard': '1',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

describe('logging in to the dashboard', () => {
  it('gives a link on the origin asked, which logs in once with an HttpOnly, SameSite=Strict session cookie', async () => {
    const made = await link();
    expect(made.url).toMatch(new RegExp(`^${ORIGIN}/login\\?token=[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(made.expires_at) - realTime).toBe(5 * 60_000);
    const path = made.url.slice(ORIGIN.length);
    const first = await visit(path);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(first.headers['set-cookie']).toMatch(
      /^ledger_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/,
    );
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    const again = await visit(path);
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain('has been used, has expired');
    expect(again.body).toContain('ledger sandbox open');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a link once 5 minutes of real time have passed, however the sandbox clock stands', async () => {
    const { url } = await link();
    await t.call('POST', '/sandbox/clock/advance', { seconds: 3600 });
    realTime += 4 * 60_000;
    const early = await link();
    realTime += 60_000 + 1;
    expect((await visit(url.slice(ORIGIN.length))).statusCode).toBe(401);
    expect((await visit(early.url.slice(ORIGIN.length))).statusCode).toBe(303);
  });

  it('answers every page without a session with how to log in, 401', async () => {
    for (const path of ['/', '/login', '/login?token=nonsense']) {
      const response = await visit(path);
      expect(response.statusCode, path).toBe(401);
      expect(response.body, path).toContain('ledger sandbox open');
    }
  });

  it('makes a link only for a request with a key', async () => {
    expect((await t.call('POST', '/sandbox/dashboard/links', undefined, { key: null })).status).toBe(401);
  });

  it('logs out on a form from its own origin only', async () => {
    const cookie = await login();
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { host: HOST, cookie, origin: 'http://evil.test' },
    });
    expect(elsewhere.statusCode).toBe(403);
    expect((await visit('/', cookie)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { host: HOST, cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers['set-cookie']).toContain('Max-Age=0');
    expect((await visit('/', cookie)).statusCode).toBe(401);
  });
});

describe('under TLS', () => {
  it('gives an https link, and marks the session cookie Secure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-dashboard-tls-'));
    const certificate = makeCertificate(dir);
    const server = await openServer({
      dbPath: ':memory:',
      throwAway: true,
      tls: checkTls(certificate, { cert: 'cert', key: 'key' }),
      log: () => {},
    });
    try {
      const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
      const send = (method: string, path: string, headers: Record<string, string>) =>
        new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
          const request = httpsRequest(new URL(path, base), { method, headers, ca: certificate.cert }, (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
          });
          request.on('error', reject);
          request.end();
        });
      const made = await send('POST', '/sandbox/dashboard/links', { 'x-api-key': server.apiKey! });
      const { url } = JSON.parse(made.body).data;
      expect(url).toMatch(new RegExp(`^${base.replace('http:', 'https:')}/login\\?token=`));
      const login = await send('GET', url, {});
      expect(login.status).toBe(303);
      expect(String(login.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Secure$/);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the html template', () => {
  it('escapes every value put into it, and keeps markup made by it', () => {
    const narration = '<img src=x onerror=alert(1)>';
    expect(html`<td title="${'" onmouseover="x'}">${narration}</td>`.text).toBe(
      '<td title="&quot; onmouseover=&quot;x">&lt;img src=x onerror=alert(1)&gt;</td>',
    );
    const row = html`<tr>
      ${[html`<td>${"O'Neil & Sons"}</td>`, null, undefined, false]}
    </tr>`;
    expect(row.text.replace(/>\s+</g, '><')).toBe('<tr><td>O&#39;Neil &amp; Sons</td></tr>');
  });
});

describe('the API with a dashboard session', () => {
  it('admits the session with x-ledger-dashboard: 1, and ignores the cookie without it', async () => {
    const cookie = await login();
    expect((await fromPage('GET', '/sandbox/clock', cookie)).statusCode).toBe(200);
    const plain = await t.app.inject({ method: 'GET', url: '/sandbox/clock', headers: { host: HOST, cookie } });
    expect(plain.statusCode).toBe(401);
    expect(plain.json().detail.code).toBe('UNAUTHORIZED');
  });

  it('refuses a write from another origin (or none) with 403 FORBIDDEN_ORIGIN, and changes nothing', async () => {
    const cookie = await login();
    const before = (await t.call('GET', '/sandbox/clock')).body.data.now;
    for (const headers of [{ origin: 'http://evil.test' }, {}, { origin: `https://${HOST}` }] as Record<
      string,
      string
    >[]) {
      const refused = await fromPage('POST', '/sandbox/clock/advance', cookie, headers, { seconds: 60 });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ success: false, detail: { code: 'FORBIDDEN_ORIGIN' } });
    }
    expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe(before);
    const moved = await fromPage('POST', '/sandbox/clock/advance', cookie, { origin: ORIGIN }, { seconds: 60 });
    expect(moved.statusCode).toBe(200);
    expect(Date.parse(moved.json().data.now) - Date.parse(before)).toBe(60_000);
  });
});

const MARKUP = '<img src=x onerror=alert(1)>';

/** A wallet with a markup narration credited, a payment held in suspense, and their deliveries. */
async function ledger() {
  const wallet = await createWallet(t, 0, { first_name: MARKUP });
  const credit = (
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: wallet.account_number,
      amount: 700_000,
      sender_name: MARKUP,
      narration: MARKUP,
      provider_reference: '000013260101120000123456789012',
    })
  ).body.data.transaction;
  const held = (
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: wallet.account_number,
      amount: 50_000,
      sender_name: 'MUSA KANO',
      sender_account: '0690000031',
      narration: `rent SANDBOX-RISK ${MARKUP}`,
      provider_reference: '000013260101130000999999999999',
    })
  ).body.data.suspense_item;
  const delivery = (await t.call('GET', '/v1/webhook-logs?limit=1')).body.data.items[0];
  return { wallet, credit, held, delivery };
}

describe('the pages', () => {
  it('every page answers 200 with a session, with its name as its title and heading', async () => {
    const cookie = await login();
    const { wallet, credit, held, delivery } = await ledger();
    const pages: [string, string][] = [
      ['/', 'Overview'],
      ['/wallets', 'Wallets'],
      ['/wallets?q=okafor', 'Wallets'],
      [`/wallets/${wallet.id}`, 'Wallet'],
      [`/transactions/${credit.id}`, 'Transaction'],
      ['/find?q=0000132601011200', 'Find a payment'],
      ['/suspense', 'Suspense'],
      ['/suspense?status=RESOLVED&reason=AI_RISK_FLAG', 'Suspense'],
      [`/suspense/${held.id}`, 'Suspense item'],
      ['/webhooks', 'Webhooks'],
      [`/webhooks/${delivery.id}`, 'Webhook delivery'],
      ['/clock', 'Clock'],
      [`/clock?from=2026-11-21T09:00:00.000Z`, 'Clock'],
      ['/requests', 'Requests'],
      ['/magic', 'Magic values'],
    ];
    for (const [path, name] of pages) {
      const response = await visit(path, cookie);
      expect([path, response.statusCode]).toEqual([path, 200]);
      expect(response.body, path).toMatch(new RegExp(`<title>${name}[^<]* · ledger sandbox</title>`));
      expect(response.body, path).toMatch(new RegExp(`<h1>${name}`));
      expect(response.body, path).not.toContain('Error [');
      expect(response.body, path).not.toContain('<img');
    }
  });

  it("answer another developer's wallet, transaction and suspense item 404, with none of their data", async () => {
    const { wallet, credit, held } = await ledger();
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other Ltd' })).body.data;
    const cookie = await login(other.api_key);
    for (const path of [`/wallets/${wallet.id}`, `/transactions/${credit.id}`, `/suspense/${held.id}`]) {
      const response = await visit(path, cookie);
      expect([path, response.statusCode]).toEqual([path, 404]);
      expect(response.body).toContain('Error [NOT_FOUND]');
      expect(response.body).not.toContain(wallet.account_number);
      expect(response.body).not.toContain('img src');
    }
    const found = await visit(`/find?q=${wallet.account_number}`, cookie);
    expect(found.body).toContain('Nothing of yours matches');
  });

  it('show the requests pages calmly where the server keeps no request log (its routes answer 404 "no route")', async () => {
    // A server of a version without the log, as the pages meet it through the API.
    const api: Api = {
      get: async (path) => ({
        ok: false,
        status: 404,
        code: 'NOT_FOUND',
        message: `no route GET ${path}`,
        requestId: undefined,
      }),
      post: async () => {
        throw new Error('the requests pages send nothing');
      },
    };
    for (const [handler, params] of [
      [requests, {}],
      [requestPage, { id: 'req_1' }],
    ] as const) {
      const page = await handler({ api, params, query: {}, url: '/requests' });
      expect(page.status ?? 200).toBe(200);
      expect(page.body.text).toContain('No request log on this sandbox');
      expect(page.body.text).not.toContain('Error [');
    }
  });

  it("the live regions answer their own content with live=1, and the assets are the package's own, cached for a year", async () => {
    const cookie = await login();
    await ledger();
    const page = (await visit('/webhooks', cookie)).body;
    const source = /data-live="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
    expect(source).toBe('/webhooks?live=1');
    const live = await visit(source, cookie);
    expect(live.statusCode).toBe(200);
    expect(live.body).toMatch(/^<div class="table-wrap"/);
    expect(live.body).not.toContain('aria-label="Main"');
    for (const asset of page.match(/\/assets\/dashboard\.[0-9a-f]{12}\.(?:js|css)/g)!) {
      const response = await visit(asset);
      expect(response.statusCode, asset).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('send the CSP, nosniff and no-referrer headers, and the overview answers 200', async () => {
    const cookie = await login();
    const response = await visit('/', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain('<title>Overview · ledger sandbox</title>');
    expect(response.body).toContain('<nav aria-label="Main">');
  });

  it('show a markup narration as text', async () => {
    const cookie = await login();
    const wallet = await createWallet(t);
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: wallet.account_number,
      amount: 700_000,
      narration: '<img src=x onerror=alert(1)>',
    });
    const response = await visit('/', cookie);
    expect(response.body).not.toContain('<img src=x');
    expect(response.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
