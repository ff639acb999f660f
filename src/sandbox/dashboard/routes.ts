import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Ok } from '../../api/schemas/common.js';
import { ownOrigin } from '../plugins/auth.js';
import type { App } from '../routes/route.js';
import { ok } from '../routes/route.js';
import { apiFor } from './api.js';
import { ASSETS } from './assets.js';
import { html } from './html.js';
import { bare, page, SECURITY_HEADERS, sendPage } from './layout.js';
import type { PageHandler } from './page-types.js';
import { PAGES } from './pages/index.js';
import { cookieValue, SESSION_COOKIE, type Sessions } from './sessions.js';

const DashboardLink = z
  .object({
    url: z.string().describe('the one-time login link, on the origin this request came in on'),
    expires_at: z.string().describe('when the link stops working, in real time (not the sandbox clock)'),
  })
  .meta({ id: 'DashboardLink' });

/** What a page's query may hold: any parameter, each once (the page reads the ones it knows). */
const PageQuery = z.record(z.string(), z.string());
const PAGE = { config: { public: true }, schema: { hide: true, querystring: PageQuery } } as const;

const YEAR = 365 * 24 * 3600;

/** The session cookie's attributes: never readable by script, never sent from another site's page. */
const cookie = (request: FastifyRequest, value: string, maxAge?: number) =>
  `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}${
    request.protocol === 'https' ? '; Secure' : ''
  }`;

const loginHelp = html`<p>
  Run <code>ledger sandbox open</code> in the folder where the sandbox was started (or with
  <code>--profile</code> naming it) for a new one-time login link. A link works once, on the server that made it, for 5
  minutes; a session ends when the server stops.
</p>`;

/**
 * The dashboard on the sandbox's own port: the login link, its session, the assets and the pages
 * (decisions: Dashboard). Its own scope, so its form parser and headers reach no route of the API.
 */
export function dashboardRoutes(sessions: Sessions) {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope as unknown as App;
    // The log-out form is a plain form, as it must work without the script.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.addHook('onSend', (_request, reply, payload, next) => {
      reply.headers(SECURITY_HEADERS);
      next(null, payload);
    });

    app.post(
      '/sandbox/dashboard/links',
      {
        schema: {
          tags: ['Sandbox'],
          summary: 'A one-time login link to the dashboard, for 5 minutes of real time (`ledger sandbox open`)',
          response: { 201: Ok(DashboardLink) },
        },
      },
      async (request, reply) => {
        const { token, expiresAt } = sessions.issue(request.developerId);
        reply.code(201);
        return ok({
          url: `${ownOrigin(request)}/login?token=${encodeURIComponent(token)}`,
          expires_at: new Date(expiresAt).toISOString(),
        });
      },
    );

    app.get('/login', PAGE, async (request, reply) => {
      const token = (request.query as Record<string, string>).token;
      const spent = token ? sessions.consume(token) : undefined;
      if (!spent)
        return sendPage(
          reply,
          bare(
            'Log in',
            html`<p>
                ${token ? 'This login link has been used, has expired, or was made by another server.' : 'This page needs a login link.'}
              </p>
              ${loginHelp}`,
          ),
          401,
        );
      return reply.code(303).header('set-cookie', cookie(request, spent.session)).header('location', '/').send();
    });

    app.post(
      '/logout',
      { config: { public: true }, schema: { hide: true, body: z.unknown() } },
      async (request, reply) => {
        if (request.headers.origin !== ownOrigin(request))
          return sendPage(
            reply,
            bare('Not logged out', html`<p>A log-out must come from the dashboard's own page.</p>`),
            403,
          );
        sessions.end(cookieValue(request.headers.cookie, SESSION_COOKIE));
        return reply
          .code(303)
          .header('set-cookie', cookie(request, '', 0))
          .header('location', '/')
          .send();
      },
    );

    for (const asset of Object.values(ASSETS))
      app.get(asset.path, { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
        reply.header('cache-control', `public, max-age=${YEAR}, immutable`).type(asset.type).send(asset.text),
      );

    for (const [path, handler] of Object.entries(PAGES))
      app.get(path, PAGE, (request, reply) => serve(scope, sessions, handler, request, reply));
  };
}

async function serve(
  app: FastifyInstance,
  sessions: Sessions,
  handler: PageHandler,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (sessions.developerOf(cookieValue(request.headers.cookie, SESSION_COOKIE)) === undefined)
    return sendPage(
      reply,
      bare(
        'Log in',
        html`<p>You are not logged in to this sandbox's dashboard.</p>
          ${loginHelp}`,
      ),
      401,
    );
  const query = { ...(request.query as Record<string, string>) };
  const live = query.live === '1';
  delete query.live;
  const url = request.url.replace(/([?&])live=1(&|$)/, (_, before: string, after: string) => (after ? before : ''));
  const result = await handler({
    api: apiFor(app, request),
    params: request.params as Record<string, string>,
    query,
    url,
  });
  if (live) return sendPage(reply, result.live ?? html``, result.status ?? 200);
  return sendPage(
    reply,
    page({ title: result.title, section: result.section, body: result.body }),
    result.status ?? 200,
  );
}
