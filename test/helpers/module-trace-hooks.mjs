// Resolve hook (runs on the loader thread): appends every resolved module URL to $LEDGER_TRACE_FILE.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.LEDGER_TRACE_FILE) appendFileSync(process.env.LEDGER_TRACE_FILE, `${result.url}\n`);
  return result;
}
