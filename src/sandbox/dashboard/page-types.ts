import type { Api } from './api.js';
import type { Html } from './html.js';
import type { Section } from './layout.js';

export interface PageContext {
  api: Api;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The page's own path and query, for its live region and its links. */
  url: string;
}

export interface PageResult {
  title: string;
  section?: Section;
  body: Html;
  /** The content of the page's live region, which its script re-reads with `live=1`. */
  live?: Html;
  status?: number;
}

export type PageHandler = (context: PageContext) => Promise<PageResult>;
