import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { type Replay, replayInWrite, storeKey } from '../../engine/idempotency/idempotency.service.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import type { Database } from '../../engine/db/database.js';
import { sendReplay } from '../plugins/idempotency.js';
import type { Sandbox } from '../sandbox.js';
import type { Scheduler } from '../scheduler.js';
import type { Snapshots } from '../snapshots.js';
import type { Dispatcher } from '../webhooks/dispatcher.js';
import type { BuiltInReceiver } from '../webhooks/receiver.js';

/** The Fastify instance routes are written against: zod-typed, with the sandbox at hand. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface RouteDeps {
  sandbox: Sandbox;
  scheduler: Scheduler;
  dispatcher: Dispatcher;
  /** Waits, while the developer is held, until none of its work still runs but `except` (the caller's request). */
  quiesce: (developerId: string, except?: FastifyRequest) => Promise<void>;
  /** The built-in receiver: its checks, its record and its failure injection. */
  receiver: BuiltInReceiver & { behaviours: Map<string, { status: number; remaining: number }> };
  snapshots: Snapshots;
  /** The sandbox's own base URL once it listens. */
  selfUrl: () => string | undefined;
  version: string;
  /** Which server this is (servers may share a database) and its database, as /sandbox/health shows them. */
  identity: { serverId: string; database: string };
  /** Real time (webhook timestamps are real time, not a developer's clock). */
  realNow: () => number;
}

/**
 * Reads in one database transaction, so they see one consistent state. Writes go through
 * `sandbox.write` (group commit) instead.
 */
export function inTransaction<T>(sandbox: Sandbox, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return sandbox.db.transaction().execute(work);
}

export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

/**
 * Runs engine work as one write (group commit: see engine/db/sqlite/group-commit.ts) and answers with its
 * result. When the request carries an Idempotency-Key, the exact response bytes are stored in that
 * same transaction: the effect and its replay commit together, so a crash can never leave one
 * without the other.
 * @example return commit(request, reply, sandbox, (trx) => createWallet(trx, env, id, body), toWallet, 201)
 */
export async function commit<T, R>(
  request: FastifyRequest,
  reply: FastifyReply,
  sandbox: Sandbox,
  work: (trx: Transaction<Database>) => Promise<T>,
  present: (result: T) => R,
  status = 200,
): Promise<FastifyReply> {
  reply.code(status);
  const answer = await sandbox.write(async (trx): Promise<{ replay: Replay } | { text: string }> => {
    if (request.idempotency) {
      const replay = await replayInWrite(trx, request.env, request.idempotency);
      if (replay) return { replay };
    }
    return { text: await answerInTransaction(request, reply, trx, present(await work(trx))) };
  }, request.developerId);
  if ('replay' in answer) {
    // Stored already: the idempotency hook only lets go of the key.
    request.idempotencyStored = true;
    return sendReplay(reply, answer.replay);
  }
  return sendAnswer(request, reply, answer.text);
}

/**
 * The answer's exact bytes, stored with the request's Idempotency-Key (if any) in the transaction
 * of its effect; send them with `sendAnswer` once that transaction has committed. `env` gives the
 * time the key is kept from (a clock advance keeps it from the time it moved the clock to).
 */
export async function answerInTransaction<R>(
  request: FastifyRequest,
  reply: FastifyReply,
  trx: Transaction<Database>,
  data: R,
  env = request.env,
): Promise<string> {
  const body = reply.serialize(ok(data)) as string;
  if (request.idempotency)
    await storeKey(trx, env, request.idempotency.scope, request.idempotency.hash, reply.statusCode, body);
  return body;
}

/** Sends an answer made by `answerInTransaction`, now committed. */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, text: string): FastifyReply {
  // The idempotency hook must not store or release the key itself.
  request.idempotencyStored = Boolean(request.idempotency);
  return reply.type('application/json; charset=utf-8').send(text);
}

/** Marks an operation in the OpenAPI document as this service's own, beyond the seed interface. */
export const EXTENSION = { 'x-ledger-extension': true } as const;
