import { describe, expect, it } from 'vitest';
import { createWallet, expectCleanAudit, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ auditAfter: true });

async function held(narration = 'asdfgh') {
  const w = await createWallet(t);
  return (
    await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 4_000, narration })
  ).body.data.suspense_item;
}
const flag = (id: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  t.call('POST', `/v1/suspense/${id}/flag`, body, options);
const note = (id: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  t.call('POST', `/v1/suspense/${id}/notes`, body, options);
const show = async (id: string) => (await t.call('GET', `/sandbox/suspense/${id}`)).body.data;

describe('POST /v1/suspense/:id/flag and /notes (decisions: Suspense)', () => {
  it('flags a PENDING item for escalation (FLAGGED), adds notes without resolving, and shows them oldest first with their time and author', async () => {
    const item = await held();
    const flagged = await flag(item.id, { note: 'sender says it is not theirs' });
    const author = { developer_id: t.developerId, business_name: 'SANDBOX' };
    expect(flagged.status).toBe(200);
    expect(flagged.body.data).toMatchObject({ id: item.id, status: 'FLAGGED', resolved_at: null });
    expect(flagged.body.data.notes).toEqual([
      { note: 'sender says it is not theirs', kind: 'FLAG', created_at: '2026-11-21T09:30:00.000Z', author },
    ]);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 3_600 });
    const noted = await note(item.id, { note: '  left a voicemail  ' });
    expect([noted.status, noted.body.data.status]).toEqual([200, 'FLAGGED']);
    const shown = await show(item.id);
    expect(shown.notes).toEqual([
      { note: 'sender says it is not theirs', kind: 'FLAG', created_at: '2026-11-21T09:30:00.000Z', author },
      { note: 'left a voicemail', kind: 'NOTE', created_at: '2026-11-21T10:30:00.000Z', author },
    ]);
    expect(shown).toEqual(noted.body.data);
    // The seed's list keeps the seed's item; the status is the only thing flagging changed there.
    const listed = (await t.call('GET', '/v1/suspense?status=FLAGGED')).body.data.items;
    expect(listed.map((i: { id: string }) => i.id)).toEqual([item.id]);
    expect(listed[0].notes).toBeUndefined();
    // Nothing moved and no event was sent: the holding account still holds it, and it resolves as any FLAGGED item.
    expect((await t.call('GET', '/v1/webhook-logs?event_type=suspense.resolved')).body.data.total).toBe(0);
    expect((await t.call('POST', `/v1/suspense/${item.id}/resolve`, { action: 'DISMISS' })).status).toBe(200);
    await expectCleanAudit(t);
  });

  it('a note on a PENDING item leaves it PENDING; flagging a FLAGGED item keeps it FLAGGED and keeps the note', async () => {
    const item = await held();
    expect((await note(item.id, { note: 'first look' })).body.data.status).toBe('PENDING');
    const risky = await held('rent SANDBOX-RISK');
    expect(risky.status).toBe('FLAGGED');
    const again = await flag(risky.id, { note: 'second opinion: escalate' });
    expect([again.status, again.body.data.status, again.body.data.notes.map((n: { kind: string }) => n.kind)]).toEqual([
      200,
      'FLAGGED',
      ['FLAG'],
    ]);
  });

  it('refuses both on a RESOLVED item with 409 SUSPENSE_ALREADY_RESOLVED and adds nothing', async () => {
    const item = await held();
    await t.call('POST', `/v1/suspense/${item.id}/resolve`, { action: 'DISMISS' });
    for (const call of [flag, note]) {
      const r = await call(item.id, { note: 'too late' });
      expect([r.status, r.body.detail.code]).toEqual([409, 'SUSPENSE_ALREADY_RESOLVED']);
    }
    expect(await show(item.id)).toMatchObject({ status: 'RESOLVED', notes: [] });
  });

  it("answers 404 to another developer's item and to an unknown id, and changes nothing", async () => {
    const item = await held();
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Acme Pay' })).body.data.api_key;
    for (const call of [flag, note]) {
      for (const [id, key] of [
        [item.id, other],
        ['no-such-item', t.key],
      ] as const) {
        const r = await call(id, { note: 'x' }, { key });
        expect([r.status, r.body.detail]).toEqual([
          404,
          { code: 'NOT_FOUND', message: 'suspense item not found', request_id: r.headers['request-id'] },
        ]);
      }
    }
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`, undefined, { key: other })).status).toBe(404);
    expect(await show(item.id)).toMatchObject({ status: 'PENDING', notes: [] });
  });

  it('refuses a missing, empty, over-long or control-character note, and unknown fields, with 400 on the field', async () => {
    const item = await held();
    const cases: [unknown, { field: string; message: string }][] = [
      [{}, { field: 'note', message: expect.any(String) }],
      [{ note: '   ' }, { field: 'note', message: 'must not be empty' }],
      [{ note: 'x'.repeat(501) }, { field: 'note', message: 'must be at most 500 characters' }],
      [
        { note: 'line one\nline two' },
        { field: 'note', message: expect.stringContaining('must not contain control characters') },
      ],
      [
        { note: 'see \u001b[2Jhere' },
        { field: 'note', message: expect.stringContaining('must not contain control characters') },
      ],
      [{ note: 7 }, { field: 'note', message: 'must be a string' }],
      [
        { note: 'ok', status: 'RESOLVED' },
        { field: 'status', message: 'unknown field' },
      ],
    ];
    for (const call of [flag, note]) {
      for (const [body, problem] of cases) {
        const r = await call(item.id, body);
        expect([JSON.stringify(body), r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
          JSON.stringify(body),
          400,
          'VALIDATION_ERROR',
          [problem],
        ]);
      }
    }
    expect((await note(item.id, { note: 'x'.repeat(500) })).status).toBe(200);
    expect(await show(item.id)).toMatchObject({ status: 'PENDING', notes: [{ note: 'x'.repeat(500) }] });
  });

  it('replays a repeated Idempotency-Key instead of adding the note twice', async () => {
    const item = await held();
    const headers = { 'idempotency-key': 'note-1' };
    const first = await note(item.id, { note: 'called once' }, { headers });
    const again = await note(item.id, { note: 'called once' }, { headers });
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', first.body]);
    const reused = await note(item.id, { note: 'something else' }, { headers });
    expect([reused.status, reused.body.detail.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await show(item.id)).notes).toHaveLength(1);
  });

  it('reset deletes the notes with their items', async () => {
    const item = await held();
    await flag(item.id, { note: 'escalated' });
    await note(item.id, { note: 'more' });
    const reset = await t.call('POST', '/sandbox/reset');
    expect(reset.body.data.removed).toMatchObject({ suspense_items: 1, suspense_notes: 2 });
    expect(await t.sandbox.db.selectFrom('suspense_notes').select('seq').execute()).toEqual([]);
    await expectCleanAudit(t);
  });

  it('is declared in the OpenAPI document as an extension of this service, with the note body', async () => {
    const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
    for (const verb of ['flag', 'notes']) {
      const operation = document.paths[`/v1/suspense/{suspense_id}/${verb}`].post;
      expect(operation['x-ledger-extension']).toBe(true);
      expect(operation.requestBody.content['application/json'].schema).toMatchObject({
        required: ['note'],
        additionalProperties: false,
        properties: { note: { maxLength: 500 } },
      });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']));
    }
    expect(document.paths['/v1/suspense/{suspense_id}/resolve'].post['x-ledger-extension']).toBeUndefined();
  });
});
