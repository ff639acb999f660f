import type { FastifyRequest } from 'fastify';
import { createReadStream } from 'node:fs';
import { errors as declare, fileResponse } from '../../api/schemas/responses.js';
import {
  DatabaseQuery,
  DeletedSnapshotResponse,
  RestoreBody,
  RestoreFileBody,
  SaveSnapshotBody,
  SnapshotListQuery,
  SnapshotPageResponse,
  SnapshotParams,
  SnapshotResponse,
} from '../../api/schemas/snapshots.js';
import { LedgerError } from '../../engine/errors.js';
import { SNAPSHOT_MEDIA_TYPE, TEXT_SNAPSHOT_MEDIA_TYPE } from '../../api/snapshot-name.js';
import { sandboxOwnerId } from '../sandbox.js';
import { type App, type RouteDeps, ok } from './route.js';

const tags = ['Sandbox'];
// Only the sandbox's owner may touch snapshots; a name or file that is not there is 404.
const errors = declare(403, 404);
// A snapshot whose books do not balance, or that is not one, is not loaded.
const restoreErrors = declare(403, 404, 422);
// A snapshot answer is never replayed: a restore replaces the very table that keeps idempotent answers.
const config = {
  idempotency: false,
  idempotencyRefusal:
    'is not accepted by snapshots: a restore replaces the stored answers themselves (saving again under a name is safe to repeat)',
};

/**
 * Snapshots of the whole sandbox (decisions: Snapshots). A snapshot covers every developer, so only the
 * sandbox's owner (the SANDBOX developer) may use them; anyone else gets 403 FORBIDDEN.
 */
export function snapshotRoutes(app: App, { sandbox, snapshots }: RouteDeps): void {
  const ownerOnly = async (request: FastifyRequest) => {
    if ((await sandboxOwnerId(sandbox)) !== request.developerId) {
      throw new LedgerError(
        'FORBIDDEN',
        "snapshots cover every developer's data: only the sandbox's owner (the SANDBOX developer's key) may use them",
      );
    }
  };

  app.get(
    '/sandbox/snapshots',
    {
      preHandler: ownerOnly,
      schema: {
        tags,
        summary: 'The named snapshots, by name',
        querystring: SnapshotListQuery,
        response: { 200: SnapshotPageResponse, ...errors },
      },
    },
    async (request) => {
      const all = snapshots.list();
      const { page, limit, order } = request.query;
      const sorted = order === 'desc' ? all.reverse() : all;
      return ok({ items: sorted.slice((page - 1) * limit, page * limit), total: all.length, page, limit });
    },
  );

  app.post(
    '/sandbox/snapshots',
    {
      preHandler: ownerOnly,
      config,
      schema: {
        tags,
        summary:
          'Save the whole sandbox as a named snapshot in the snapshot directory (consistent under load, ' +
          'crash-safe): an SQLite file, or with `format: json` deterministic JSON Lines',
        body: SaveSnapshotBody,
        response: { 200: SnapshotResponse, ...errors },
      },
    },
    async (request) => {
      // The request log is in the snapshot as it stands when the snapshot is asked for (decisions: Request log).
      await app.requestLog.flush();
      return ok(await snapshots.save(request.body.name, request.env.clock.now(), request.body.format));
    },
  );

  app.get(
    '/sandbox/database',
    {
      preHandler: ownerOnly,
      schema: {
        tags,
        summary:
          'Download the whole sandbox as a snapshot file (application/vnd.sqlite3, ' +
          'or with format=json a text snapshot as application/jsonl; ' +
          'header snapshot-saved-at), consistent under load: ' +
          '`ledger sandbox snapshot save --file` writes it on your machine',
        querystring: DatabaseQuery,
        response: {
          200: fileResponse(
            SNAPSHOT_MEDIA_TYPE,
            'the whole sandbox as a snapshot, consistent: an SQLite file, or (format=json) JSON Lines',
            [TEXT_SNAPSHOT_MEDIA_TYPE],
          ),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const text = request.query.format === 'json';
      const copy = await snapshots.copy(request.env.clock.now(), request.query.format);
      return reply
        .type(text ? TEXT_SNAPSHOT_MEDIA_TYPE : SNAPSHOT_MEDIA_TYPE)
        .header('content-disposition', `attachment; filename="sandbox.${text ? 'jsonl' : 'db'}"`)
        .header('content-length', copy.size_bytes)
        .header('snapshot-saved-at', copy.saved_at)
        .send(createReadStream('', { fd: copy.fd }));
    },
  );

  app.post(
    '/sandbox/snapshots/:name/restore',
    {
      preHandler: ownerOnly,
      config,
      schema: {
        tags,
        summary:
          'Replace the whole sandbox with a named snapshot, atomically between two write batches, ' +
          'once its books balance (422 SNAPSHOT_INVALID; `force` skips that check)',
        params: SnapshotParams,
        body: RestoreBody,
        response: { 200: SnapshotResponse, ...restoreErrors },
      },
    },
    async (request) => ok(await snapshots.restore({ name: request.params.name }, { force: request.body?.force })),
  );

  app.post(
    '/sandbox/snapshots/restore',
    {
      preHandler: ownerOnly,
      config,
      schema: {
        tags,
        summary:
          'Replace the whole sandbox with the snapshot in a file (an absolute path), once its books balance (422 SNAPSHOT_INVALID; `force` skips that check)',
        body: RestoreFileBody,
        response: { 200: SnapshotResponse, ...restoreErrors },
      },
    },
    async (request) => ok(await snapshots.restore({ file: request.body.file }, { force: request.body.force })),
  );

  app.delete(
    '/sandbox/snapshots/:name',
    {
      preHandler: ownerOnly,
      config,
      schema: {
        tags,
        summary: 'Delete a named snapshot',
        params: SnapshotParams,
        response: { 200: DeletedSnapshotResponse, ...errors },
      },
    },
    async (request) => {
      snapshots.remove(request.params.name);
      return ok({ name: request.params.name, deleted: true as const });
    },
  );
}
