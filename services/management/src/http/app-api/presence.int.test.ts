import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomIds, zeroId } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestClock, createTestDatabase, type TestCore } from '@lectern/testing';
import { startPeopleFixture, type PeopleFixture } from '../../testing/people-fixture.ts';
import { personBrowser, type PersonBrowser } from '../../testing/person-browser.ts';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

/*
 * Presence across replicas (issue 31): two Management apps on one PostgreSQL database, each with
 * its own store and presence hub. A person's heartbeats through app A reach a person watching
 * through app B, live; heartbeats are rate-limited, rows are bounded per person and expire.
 */

const postgresUrl = inject('postgresUrl');
type Presence = {
  people: { user_id: string; name: string; element: string | null; client_id: string }[];
  last_saved_by: { user_id: string; name: string } | null;
};

/** Reads `presence` events of an SSE response as they come. */
function presenceReader(response: Response) {
  const body = response.body?.getReader();
  if (!body) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await body.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => undefined);
  const events = (): Presence[] =>
    text
      .split('\n\n')
      .filter((b) => b.startsWith('event: presence'))
      .map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6)) as Presence);
  return {
    /** The first event from now on (or the latest) that passes `test`, within `ms`. */
    async waitFor(test: (p: Presence) => boolean, ms = 5000): Promise<Presence | null> {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const last = events().at(-1);
        if (last && test(last)) return last;
        await new Promise((r) => setTimeout(r, 25));
      }
      return null;
    },
    async cancel() {
      await body.cancel().catch(() => undefined);
      await pump;
    },
  };
}

describe.skipIf(!postgresUrl)('presence across two Management apps on one PostgreSQL', () => {
  const clock = createTestClock();
  let fixture: PeopleFixture;
  let other: TestManagement;
  let ann: PersonBrowser;
  let bobOnB: PersonBrowser;
  let originB: string;
  let projectId: string;
  let itemId: string;
  const annTab = randomIds.uuid();

  beforeAll(async () => {
    const url = await createTestDatabase(postgresUrl);
    const coreOf = async (): Promise<TestCore> => ({
      store: await openPostgresStore({ connectionString: url }),
      clock,
      ids: randomIds,
    });
    fixture = await startPeopleFixture({ core: await coreOf() });
    other = await startTestManagement({ core: await coreOf(), isRunningTasks: false });
    originB = other.baseUrl.replace(/\/v2$/, '');
    projectId = fixture.server.projectId;
    await fixture.server.fetch('/types', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Note',
        codename: 'note',
        elements: [
          { type: 'text', name: 'Title', codename: 'title' },
          { type: 'text', name: 'Body', codename: 'body' },
        ],
      }),
    });
    const item = await fixture.server.fetch('/items', {
      method: 'POST',
      body: JSON.stringify({ name: 'Shared note', type: { codename: 'note' } }),
    });
    itemId = ((await item.json()) as { id: string }).id;
    ann = await fixture.invited('ann', 'Content creator');
    const bob = await fixture.invited('bob', 'Content creator');
    // Bob's session lives in the shared database: app B knows it too.
    bobOnB = personBrowser(originB);
    bobOnB.cookie = bob.cookie;
    bobOnB.csrf = bob.csrf;
  });
  afterAll(async () => {
    await other?.close();
    await fixture?.close();
  });

  const beat = (browser: PersonBrowser, body: Record<string, unknown>) =>
    browser.call(`/projects/${projectId}/presence`, {
      method: 'POST',
      body: { item_id: itemId, language_id: zeroId, client_id: annTab, element: null, ...body },
    });
  const watchOnB = async () => {
    const response = await fetch(
      `${originB}/app/api/projects/${projectId}/presence?item_id=${itemId}&language_id=${zeroId}`,
      { headers: { cookie: `lectern_app=${bobOnB.cookie ?? ''}` } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    return presenceReader(response);
  };

  it('shows a person editing through app A to a person watching through app B, live', async () => {
    expect((await beat(ann, { element: 'body' })).status).toBe(204);
    const stream = await watchOnB();
    try {
      const first = await stream.waitFor((p) => p.people.length === 1);
      expect(first?.people[0]).toMatchObject({ user_id: fixture.userIds['ann'], element: 'body', client_id: annTab });
      clock.advance(1000);
      expect((await beat(ann, { element: 'title' })).status).toBe(204);
      expect(await stream.waitFor((p) => p.people[0]?.element === 'title')).not.toBeNull();
      // Ann saves through app A: B's watchers learn who made the current version.
      const saved = await ann.call(`/v2/projects/${projectId}/items/${itemId}/variants/${zeroId}`, {
        method: 'PUT',
        body: { elements: [{ element: { codename: 'title' }, value: 'Ann was here' }] },
      });
      expect(saved.status).toBe(201);
      const withSave = await stream.waitFor((p) => p.last_saved_by !== null);
      expect(withSave?.last_saved_by?.user_id).toBe(fixture.userIds['ann']);
      // Leaving removes her at once, without waiting for the expiry.
      const left = await ann.call(`/projects/${projectId}/presence/${annTab}`, { method: 'DELETE' });
      expect(left.status).toBe(204);
      expect(await stream.waitFor((p) => p.people.length === 0)).not.toBeNull();
    } finally {
      await stream.cancel();
    }
  });

  it('refuses heartbeats faster than the limit, and malformed ones, storing nothing', async () => {
    clock.advance(1000);
    expect((await beat(ann, { element: 'body' })).status).toBe(204);
    const tooFast = await beat(ann, { element: 'title' });
    expect(tooFast.status).toBe(429);
    expect(tooFast.headers.get('retry-after')).toBe('1');
    const bad = await beat(ann, { item_id: 'x', client_id: 'not-a-uuid', element: 'Title!' });
    expect(bad.status).toBe(400);
    expect((bad.json['validation_errors'] as { path: string }[]).map((e) => e.path).sort()).toEqual([
      'client_id',
      'element',
      'item_id',
    ]);
    expect((await beat(ann, { item_id: randomIds.uuid() })).status).toBe(404);
    const unknown = await fetch(
      `${originB}/app/api/projects/${projectId}/presence?item_id=${randomIds.uuid()}&language_id=${zeroId}`,
      { headers: { cookie: `lectern_app=${bobOnB.cookie ?? ''}` } },
    );
    expect(unknown.status).toBe(404);
    expect((await unknown.json()) as { error_code: number }).toMatchObject({ error_code: expect.any(Number) });
    const noCsrf = await ann.call(`/projects/${projectId}/presence`, {
      method: 'POST',
      body: { item_id: itemId, language_id: zeroId, client_id: randomIds.uuid() },
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
    const stream = await watchOnB();
    try {
      const now = await stream.waitFor(() => true);
      expect(now?.people.map((p) => p.element)).toEqual(['body']);
    } finally {
      await stream.cancel();
    }
  });

  it('keeps at most 20 tabs per person and forgets a tab 30 s after its last heartbeat', async () => {
    for (let i = 0; i < 25; i++) {
      clock.advance(10);
      expect((await beat(ann, { client_id: randomIds.uuid() })).status).toBe(204);
    }
    const count = async () => {
      const stream = await watchOnB();
      try {
        return (await stream.waitFor(() => true))?.people.length;
      } finally {
        await stream.cancel();
      }
    };
    expect(await count()).toBe(20);
    clock.advance(30_001);
    expect(await count()).toBe(0);
  });
});
