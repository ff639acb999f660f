import { createHash } from 'node:crypto';
import { DASHBOARD_CSS } from './assets/style.js';
import { DASHBOARD_JS } from './assets/script.js';

/**
 * The dashboard's stylesheet and script, kept as strings in modules (decisions: Dashboard): they
 * travel inside the scenario bundle and the package with the code that serves them, with no file
 * to find beside a module that a bundle has moved. Each path carries a hash of its text, so it may
 * be cached for a year and a new version is a new path.
 */
function asset(name: string, extension: string, type: string, text: string) {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return { path: `/assets/${name}.${hash}.${extension}`, type, text };
}

export const ASSETS = {
  css: asset('dashboard', 'css', 'text/css; charset=utf-8', DASHBOARD_CSS),
  js: asset('dashboard', 'js', 'text/javascript; charset=utf-8', DASHBOARD_JS),
};
