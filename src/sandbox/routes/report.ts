import { lagosDayStart, parseLocalInstant, TIME_ZONE } from '../../api/instant.js';
import { ReportQuery, ReportResponse } from '../../api/schemas/report.js';
import { buildReport } from '../../engine/report/report.service.js';
import { type App, type RouteDeps, inTransaction, ok } from './route.js';

/** The one-screen report of a period (decisions: Requests and validation). */
export function reportRoutes(app: App, { sandbox }: RouteDeps): void {
  app.get(
    '/sandbox/report',
    {
      schema: {
        tags: ['Sandbox'],
        summary:
          `What the caller's books did in a period (default: today in ${TIME_ZONE}, to now): ` +
          `transactions by type and status, money in and out, suspense by status and reason, ` +
          `webhook deliveries and failing endpoints`,
        querystring: ReportQuery,
        response: { 200: ReportResponse },
      },
    },
    async (request) => {
      const now = request.env.clock.now();
      const { since, until } = request.query;
      const period = {
        since: since === undefined ? lagosDayStart(now.getTime()) : parseLocalInstant(since)!,
        until: until === undefined ? null : parseLocalInstant(until)!,
      };
      const {
        since: from,
        until: to,
        ...sections
      } = await inTransaction(sandbox, (trx) => buildReport(trx, request.developerId, period, now));
      return ok({ since: from, until: to, time_zone: TIME_ZONE, ...sections });
    },
  );
}
