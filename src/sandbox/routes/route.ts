import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import type { Database } from '../../engine/db/database.js';
import type { Sandbox } from '../sandbox.js';
import type { Scheduler } from '../scheduler.js';
import type { Dispatcher } from '../webhooks/dispatcher.js';

/** The Fastify instance routes are written against: zod-typed, with the sandbox at hand. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

export interface RouteDeps {
  sandbox: Sandbox;
  scheduler: Scheduler;
  dispatcher: Dispatcher;
  /** The sandbox's own base URL once it listens. */
  selfUrl: () => string | undefined;
  version: string;
}

/** Runs engine work in one database transaction: all of it commits, or none. */
export function inTransaction<T>(sandbox: Sandbox, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return sandbox.db.transaction().execute(work);
}

export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}
