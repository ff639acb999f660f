import { describe, expect, it } from 'vitest';
import { render } from '../../src/cli/output/render.js';
import { reportView } from '../../src/commands/report.js';

const empty = { count: 0, amount: 0 };
const report = (overrides: Record<string, unknown>) => ({
  since: '2026-11-20T23:00:00.000Z',
  until: '2026-11-21T09:30:00.000Z',
  time_zone: 'Africa/Lagos',
  transactions: [],
  money_in: empty,
  money_out: { settled: empty, pending: empty, failed: empty, fees: 0 },
  net: 0,
  suspense: { items: [], oldest_waiting: null },
  webhooks: { deliveries: [], failing_endpoints: [] },
  ...overrides,
});

function screen(data: unknown): string {
  let out = '';
  render({ write: (s: string) => (out += s), isTTY: false }, data, reportView, {
    quiet: false,
    env: { COLUMNS: '80' },
  });
  return out;
}

describe('the report screen', () => {
  it('shows a total past 2^53, which the API gives as a string of digits, as exact naira in its column', () => {
    const text = screen(
      report({
        transactions: [{ type: 'CREDIT', status: 'SETTLED', count: 901, amount: '9010000000000000' }],
        net: '-9007199254740993',
      }),
    );
    expect(text).toContain('\n  CREDIT    SETTLED                    901  ₦90,100,000,000,000.00\n');
    expect(text).toContain('\nNet         in − payouts                    -₦90,071,992,547,409.93\n');
  });

  it('says when there is nothing, and keeps a long endpoint URL and error to 80 columns', () => {
    const url = `http://127.0.0.1:4010/hooks/${'x'.repeat(100)}`;
    const text = screen(
      report({
        webhooks: {
          deliveries: [{ status: 'FAILED', count: 2 }],
          failing_endpoints: [
            {
              url,
              failed_attempts: 2,
              failing_deliveries: 2,
              last_error: {
                at: '2026-11-21T09:00:00.000Z',
                http_status_code: null,
                response_body: null,
                error: `connect ECONNREFUSED ${'y'.repeat(100)}`,
              },
            },
          ],
        },
      }),
    );
    expect(text).toContain('Transactions                         count              amount\n  none\n');
    expect(text).toContain('\nWebhooks    FAILED 2\n  Failing http://127.0.0.1:4010/hooks/xxx');
    expect(text).toContain('\n    2 failed attempts, 2 still failing; last 10:00:\n    connect ECONNREFUSED yyy');
    expect(text.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });
});
