import type { PageHandler } from '../page-types.js';
import { overview } from './overview.js';

/** Every page by its path (the URL map the browser tests navigate by). */
export const PAGES: Record<string, PageHandler> = {
  '/': overview,
};
