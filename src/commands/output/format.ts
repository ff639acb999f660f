import { Chalk, type ChalkInstance } from 'chalk';

const NAIRA = new Intl.NumberFormat('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Kobo as naira for people: 500000 → "₦5,000.00". Exact for every safe integer. */
export function naira(kobo: number): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const whole = Math.trunc(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}₦${NAIRA.format(whole).split('.')[0]}.${cents}`;
}

/** Both units, kobo first: "500000 (₦5,000.00)". */
export function money(kobo: number): string {
  return `${kobo} (${naira(kobo)})`;
}

/** Colour only on a terminal, and never with NO_COLOR set. */
export function colourFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): ChalkInstance {
  const enabled = Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  return new Chalk({ level: enabled ? 1 : 0 });
}

const GOOD = new Set(['ACTIVE', 'SETTLED', 'SUCCESS', 'DELIVERED', 'RESOLVED', 'CREDITED', 'DONE', 'ok', 'running']);
const WAITING = new Set(['PENDING', 'SUSPENDED', 'SKIPPED']);
const BAD = new Set(['CLOSED', 'FAILED', 'DEAD', 'FLAGGED', 'stopped']);

export function status(value: string, c: ChalkInstance): string {
  if (GOOD.has(value)) return c.green(value);
  if (WAITING.has(value)) return c.yellow(value);
  if (BAD.has(value)) return c.red(value);
  return value;
}
