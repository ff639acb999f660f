import type { FastifyReply } from 'fastify';
import { naira } from '../../text/format.js';
import { ASSETS } from './assets.js';
import { type Html, html } from './html.js';

/** The main navigation, in order: the browser tests find the pages by these names. */
export const NAV = [
  ['/', 'Overview'],
  ['/wallets', 'Wallets'],
  ['/suspense', 'Suspense'],
  ['/webhooks', 'Webhooks'],
  ['/clock', 'Clock'],
  ['/requests', 'Requests'],
  ['/magic', 'Magic values'],
] as const;

export type Section = (typeof NAV)[number][1];

/**
 * The headers of every dashboard response: no script but the package's own, no framing, no
 * referrer (a login link's token must not leave in one), no guessing of types.
 */
export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function head(title: string): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ledger sandbox</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${ASSETS.css.path}" />
        <script src="${ASSETS.js.path}" defer></script>
      </head>
    </html>`;
}

/** A page of a logged-in developer: the skip link, the header's search and log-out, the navigation, then the page. */
export function page(options: { title: string; section?: Section; body: Html; business?: string }): Html {
  const { title, section, body } = options;
  return html`${head(title)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/">ledger sandbox</a>
  <form class="find" role="search" action="/find" method="get">
    <label for="find-q">Find a payment</label>
    <input id="find-q" name="q" type="search" minlength="3" required placeholder="bank reference, session id, account, name">
    <button type="submit">Find</button>
  </form>
  <form class="logout" action="/logout" method="post"><button type="submit">Log out</button></form>
</header>
<nav aria-label="Main"><ul>${NAV.map(
    ([href, name]) =>
      html`<li><a href="${href}" ${section === name ? html` aria-current="page"` : ''}>${name}</a></li>`,
  )}</ul></nav>
<main id="main" tabindex="-1">
<h1>${title}</h1>
<div id="alert" class="alert" role="alert"></div>
<div id="status" class="status" role="status"></div>
${body}
</main>
</body>
</html>
`;
}

/** A page with no navigation: the way in (log in, a link that failed). */
export function bare(title: string, body: Html): Html {
  return html`${head(title)}
<body>
<main id="main" tabindex="-1" class="bare">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

export function sendPage(reply: FastifyReply, markup: Html, status = 200): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(markup.text);
}

/** Kobo as the CLI shows it: ₦ with two decimals. */
export const money = (kobo: number | string | null | undefined): string =>
  kobo === null || kobo === undefined ? '' : naira(kobo);

/** Columns of figures, whose headings stand right as their figures do (their cells are `td.num`). */
const FIGURE_COLUMNS = new Set([
  '#',
  'Count',
  'Amount',
  'Balance',
  'Balance after',
  'Failed attempts',
  'Still failing',
  'Duration',
  'Attempts',
]);

/** A table in a box of its own, which scrolls sideways in a narrow window instead of the page. */
export function table(
  caption: string,
  head: readonly string[],
  rows: readonly Html[],
  options: { empty?: string } = {},
): Html {
  const body = rows.length
    ? rows
    : [
        html`<tr>
          <td colspan="${head.length}">${options.empty ?? 'None.'}</td>
        </tr>`,
      ];
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${head.map((name) =>
            FIGURE_COLUMNS.has(name)
              ? html`<th scope="col" class="num">${name}</th>`
              : html`<th scope="col">${name}</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${body}
      </tbody>
    </table>
  </div>`;
}

/** Name–value pairs (one record). */
export function facts(pairs: readonly [string, Html | string | number | null | undefined][]): Html {
  return html`<dl class="facts">
    ${pairs.map(
      ([name, value]) =>
        html`<div>
          <dt>${name}</dt>
          <dd>${value ?? '—'}</dd>
        </div>`,
    )}
  </dl>`;
}

/** Previous and next links of a list the server pages. */
export function pager(
  base: string,
  query: Record<string, string | undefined>,
  page: number,
  limit: number,
  total: number,
): Html {
  const link = (to: number) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
    search.set('page', String(to));
    return `${base}?${search}`;
  };
  const pages = Math.max(1, Math.ceil(total / limit));
  return html`<nav class="pager" aria-label="Pages">
    ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous page</a>` : ''}
    <span>Page ${page} of ${pages} (${total} in all)</span>
    ${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next page</a>` : ''}
  </nav>`;
}

/** An API refusal, said as the CLI says it: code, message and the request id. */
export function refusal(answer: { code: string; message: string; requestId: string | undefined }): Html {
  return html`<p class="error">
    Error [${answer.code}] ${answer.message}${answer.requestId ? ` (request ${answer.requestId})` : ''}
  </p>`;
}

/** A region the page's script re-reads every 2 s (the page's own URL with live=1) and a screen reader announces politely. */
export function liveRegion(url: string, content: Html): Html {
  const source = `${url}${url.includes('?') ? '&' : '?'}live=1`;
  return html`<div class="live" aria-live="polite" data-live="${source}">${content}</div>`;
}

/** A link to a record's page. */
export const link = (path: string, id: string, text: string = id): Html =>
  html`<a href="${path}/${encodeURIComponent(id)}">${text}</a>`;

/** An instant as the API gives it, shortened for a table: "2026-11-21 09:30:00Z". */
export const when = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z` : '—';

/** The page a list is on, from its query (1 when absent or not a number). */
export const pageOf = (query: Record<string, string>): number =>
  Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1);
