import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  addContentType,
  changeUserRoles,
  createApiKey,
  createProject,
  inviteUser,
  modifyContentType,
  operator,
  randomIds,
  revokeApiKey,
  roleId,
  systemClock,
} from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen } from '@lectern/http-kit';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestDatabase } from '@lectern/testing';
import { buildManagementApp } from '../../app.ts';

/**
 * Issue 35 keeps what a variant upsert reads of the content model in memory while the model's
 * version is unchanged, and reads a key with its owner's roles in one statement. What a user must
 * not notice: a model change, a role change or a key's revocation made through ANOTHER server on
 * the same database (PostgreSQL; on PGlite the same store) is seen by the very next upsert of a
 * server that has just answered upserts from its memory.
 */
const postgresUrl = inject('postgresUrl');

async function exercise(serving: SqlStore, other: SqlStore): Promise<void> {
  const core = { store: serving, clock: systemClock, ids: randomIds };
  const elsewhere = { store: other, clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'Model memo' });
  const input = { actor: operator, projectId: project.id };
  await addContentType(core, {
    ...input,
    body: { name: 'Note', codename: 'note', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
  });
  const issued = await createApiKey(core, { ...input, kind: 'management', userEmail: 'writer@example.com' });
  const app = buildManagementApp({
    core,
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    operatorToken: null,
    rateLimits: { perSecond: Infinity, perMinute: Infinity, perHour: Infinity },
  });
  const server = await listen(createServer(app), { host: '127.0.0.1', port: 0 });
  const put = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/v2/projects/${project.id}/items/external-id/${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${issued.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const save = (elements: Record<string, string>) =>
    put('note/variants/codename/default', {
      elements: Object.entries(elements).map(([codename, value]) => ({ element: { codename }, value })),
    });
  const roles = (key: string) => ({
    collection_groups: [{ collections: [], roles: [{ id: roleId(project.id, key), languages: [] }] }],
  });
  try {
    expect((await put('note', { name: 'Note', type: { codename: 'note' } })).status).toBe(201);
    // Warm: these upserts leave the model in the serving store's memory.
    for (let i = 0; i < 3; i++) expect((await save({ title: `Title ${i}` })).status).toBeLessThan(300);
    expect((await save({ subtitle: 'Sub' })).status).toBe(400);

    // A new element, added elsewhere: the very next upsert may fill it.
    await modifyContentType(elsewhere, {
      ...input,
      key: { codename: 'note' },
      operations: [
        { op: 'addInto', path: '/elements', value: { name: 'Subtitle', codename: 'subtitle', type: 'text' } },
      ],
    });
    const filled = await save({ subtitle: 'Sub' });
    expect(filled.status).toBe(200);
    expect(JSON.stringify(filled.json['elements'])).toContain('"Sub"');

    // Removed elsewhere: the very next upsert naming it is refused again.
    await modifyContentType(elsewhere, {
      ...input,
      key: { codename: 'note' },
      operations: [{ op: 'remove', path: '/elements/codename:subtitle' }],
    });
    expect((await save({ subtitle: 'Sub' })).status).toBe(400);

    // The key's owner invited as a reviewer elsewhere: the very next upsert is refused (403, 16).
    await inviteUser(elsewhere, { ...input, body: { email: 'writer@example.com', ...roles('reviewer') } });
    const refused = await save({ title: 'As a reviewer' });
    expect(refused.status).toBe(403);
    expect(refused.json['error_code']).toBe(16);
    // Made a content creator: allowed again at once.
    await changeUserRoles(elsewhere, {
      ...input,
      user: { email: 'writer@example.com' },
      body: roles('content-creator'),
    });
    expect((await save({ title: 'As a creator' })).status).toBe(200);

    // Revoked elsewhere: the very next request is refused as revoked (403, error_code 7).
    await revokeApiKey(elsewhere, { actor: operator, keyId: issued.key.id });
    const revoked = await save({ title: 'After revocation' });
    expect(revoked.status).toBe(403);
    expect(revoked.json['error_code']).toBe(7);
  } finally {
    await server.close();
  }
}

describe('a variant upsert sees model, role and key changes made elsewhere at once', () => {
  it('on PGlite (one store)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-model-memo-'));
    const store = await openPgliteStore({ dataDir: join(dir, 'pglite') });
    try {
      await exercise(store, store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgresUrl)('on PostgreSQL, the change made through a second server on the same database', async () => {
    const url = await createTestDatabase(postgresUrl);
    const serving = await openPostgresStore({ connectionString: url });
    const other = await openPostgresStore({ connectionString: url });
    try {
      await exercise(serving, other);
    } finally {
      await serving.close();
      await other.close();
    }
  });
});
