import { cleanDeep } from '../../text/clean.js';
import type { View } from './views.js';

/** What --quiet prints: the id of each item or of the record, one a line (no table code loaded). */
export function quietText(data: unknown, view: View): string {
  const record = cleanDeep(data) as Record<string, unknown>;
  let ids: string[];
  if (view.kind === 'list') ids = (record.items as Record<string, unknown>[]).map((item) => String(item[view.id]));
  else if (view.kind === 'record') ids = [String(record[view.id])];
  else ids = view.quiet ? [view.quiet(record)] : [];
  return ids.length > 0 ? `${ids.join('\n')}\n` : '';
}
