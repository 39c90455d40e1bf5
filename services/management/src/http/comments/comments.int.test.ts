import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestCore, type TestCore } from '@lectern/testing';
import { openPostgresTestCore, startPeopleFixture, type PeopleFixture } from '../../testing/people-fixture.ts';
import type { PersonBrowser } from '../../testing/person-browser.ts';
import type { TestManagement } from '../../testing/test-server.ts';

/*
 * Comments on a variant (issue 31) through the real app, on PGlite and PostgreSQL: people of any
 * role open threads (on an element, on a rich text selection), mention each other (an e-mail per
 * new mention, through the app's mailer), reply, resolve and reopen; only authors edit or delete;
 * hostile bodies are refused in the Management API's shape with nothing stored; every write is a
 * `comment` change event; the comments go with their item.
 */

interface Thread {
  id: string;
  element: { id: string };
  anchor: { quote: string; prefix: string; suffix: string; start: number } | null;
  is_resolved: boolean;
  resolved_by: { id: string } | null;
  comments: { id: string; text: string; author: { id: string }; mentions: { id: string }[] }[];
}

function describeComments(engine: string, openCore: () => Promise<TestCore>): void {
  describe(`comments on ${engine}`, () => {
    let fixture: PeopleFixture;
    let server: TestManagement;
    let reviewer: PersonBrowser;
    let writer: PersonBrowser;
    let bodyId: string;
    let path: string;
    const ids = () => fixture.userIds;
    const threadsOf = async (who: PersonBrowser) =>
      ((await who.call(path)).json as unknown as { threads: Thread[] }).threads;

    beforeAll(async () => {
      fixture = await startPeopleFixture({ core: await openCore() });
      server = fixture.server;
      const type = await server.fetch('/types', {
        method: 'POST',
        body: JSON.stringify({
          name: 'Article',
          codename: 'article',
          elements: [
            { type: 'text', name: 'Title', codename: 'title' },
            { type: 'rich_text', name: 'Body', codename: 'body' },
          ],
        }),
      });
      bodyId = ((await type.json()) as { elements: { id: string; codename: string }[] }).elements.find(
        (e) => e.codename === 'body',
      )!.id;
      await server.fetch('/items', {
        method: 'POST',
        body: JSON.stringify({ name: 'First', codename: 'first', type: { codename: 'article' } }),
      });
      await server.fetch('/items/codename/first/variants/codename/default', {
        method: 'PUT',
        body: JSON.stringify({
          elements: [{ element: { codename: 'body' }, value: '<p>The quick brown fox jumps.</p>' }],
        }),
      });
      reviewer = await fixture.invited('reviewer', 'Reviewer');
      writer = await fixture.invited('writer', 'Content creator');
      path = `/v2/projects/${server.projectId}/items/codename/first/variants/codename/default/comments`;
    });
    afterAll(async () => {
      await fixture?.close();
    });

    it('runs a thread on a selection: a mention e-mailed, a reply, resolve and reopen', async () => {
      expect(await threadsOf(reviewer)).toEqual([]);
      const anchor = { quote: 'brown fox', prefix: 'The quick ', suffix: ' jumps.', start: 10 };
      const created = await reviewer.call(path, {
        method: 'POST',
        body: { element: { codename: 'body' }, anchor, text: 'Is it red?', mentions: [{ id: ids()['writer'] }] },
      });
      expect(created.status).toBe(201);
      const thread = created.json as unknown as Thread;
      expect(thread).toMatchObject({ element: { id: bodyId }, anchor, is_resolved: false });
      expect(thread.comments).toMatchObject([
        { text: 'Is it red?', author: { id: ids()['reviewer'] }, mentions: [{ id: ids()['writer'] }] },
      ]);
      const mail = fixture.texts.at(-1);
      expect(mail?.to).toEqual(['writer@example.com']);
      expect(mail?.subject).toBe('reviewer@example.com mentioned you in a comment on First');
      expect(mail?.text).toContain('> Is it red?');
      expect(mail?.text).toContain(`https://editor.example.com/app/p/${server.projectId}/default/items/`);

      const base = `${path}/${thread.id}`;
      const reply = await writer.call(`${base}/replies`, {
        method: 'POST',
        body: { text: 'No, brown. @reviewer', mentions: [{ id: ids()['reviewer'] }] },
      });
      expect(reply.status).toBe(201);
      expect(fixture.texts.at(-1)?.to).toEqual(['reviewer@example.com']);
      expect((await threadsOf(writer))[0]?.comments.map((c) => c.text)).toEqual(['Is it red?', 'No, brown. @reviewer']);

      const resolved = await writer.call(`${base}/resolve`, { method: 'PUT' });
      expect(resolved.json).toMatchObject({ is_resolved: true, resolved_by: { id: ids()['writer'] } });
      const late = await reviewer.call(`${base}/replies`, { method: 'POST', body: { text: 'One more thing' } });
      expect(late.status).toBe(400);
      expect(late.json['error_code']).toBe(143);
      const reopened = await reviewer.call(`${base}/reopen`, { method: 'PUT' });
      expect(reopened.json).toMatchObject({ is_resolved: false, resolved_by: null });
      expect((await threadsOf(reviewer))[0]?.comments).toHaveLength(2);
    });

    it('lets only the author edit or delete a comment; a new mention on edit is e-mailed once', async () => {
      const created = await writer.call(path, {
        method: 'POST',
        body: { element: { codename: 'title' }, text: 'Shorter title?' },
      });
      const thread = created.json as unknown as Thread;
      const commentPath = `${path}/${thread.id}/comments/${thread.comments[0]!.id}`;
      const foreign = await reviewer.call(commentPath, { method: 'PUT', body: { text: 'Hijacked' } });
      expect(foreign.status).toBe(403);
      expect(foreign.json['error_code']).toBe(142);
      expect((await reviewer.call(commentPath, { method: 'DELETE' })).status).toBe(403);
      const mailsBefore = fixture.texts.length;
      const edited = await writer.call(commentPath, {
        method: 'PUT',
        body: { text: 'Shorter title, @reviewer?', mentions: [{ id: ids()['reviewer'] }] },
      });
      expect(edited.status).toBe(200);
      expect(fixture.texts.length).toBe(mailsBefore + 1);
      await writer.call(commentPath, { method: 'PUT', body: { text: 'Same', mentions: [{ id: ids()['reviewer'] }] } });
      expect(fixture.texts.length).toBe(mailsBefore + 1);
      expect((await writer.call(commentPath, { method: 'DELETE' })).status).toBe(204);
      // Its only comment gone, the thread goes too.
      expect((await threadsOf(writer)).map((t) => t.id)).not.toContain(thread.id);
      expect((await writer.call(`${path}/${thread.id}/resolve`, { method: 'PUT' })).status).toBe(404);
    });

    it('refuses hostile bodies in the API shape and stores nothing', async () => {
      const before = await threadsOf(writer);
      const refusals: [unknown, number][] = [
        [{ element: { codename: 'body' }, text: 'x'.repeat(2_001) }, 5],
        [{ element: { codename: 'body' }, text: '' }, 5],
        [{ element: { codename: 'body' }, text: 'nul \u0000' }, 5],
        [
          {
            element: { codename: 'body' },
            text: 'hi',
            mentions: Array.from({ length: 21 }, () => ({ id: ids()['writer'] })),
          },
          5,
        ],
        [{ element: { codename: 'body' }, text: 'hi', mentions: [{ id: '00000000-0000-4000-8000-000000000009' }] }, 5],
        [{ element: { codename: 'nope' }, text: 'hi' }, 5],
        [{ element: { codename: 'title' }, text: 'hi', anchor: { quote: 'x', start: 0 } }, 5],
        [{ element: { codename: 'body' }, text: 'hi', anchor: { quote: 'y'.repeat(1_001), start: 0 } }, 5],
        [{ element: { codename: 'body' }, text: 'hi', anchor: { quote: 'y', start: -1 } }, 5],
        [[1, 2], 5],
      ];
      for (const [body, code] of refusals) {
        const answer = await writer.call(path, { method: 'POST', body });
        expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(answer.json['error_code']).toBe(code);
      }
      const missing = await writer.call(`${path}/not-a-thread/replies`, { method: 'POST', body: { text: 'hi' } });
      expect([missing.status, missing.json['error_code']]).toEqual([404, 140]);
      const noCsrf = await writer.call(path, {
        method: 'POST',
        body: { element: { codename: 'body' }, text: 'hi' },
        csrf: false,
      });
      expect(noCsrf.status).toBe(403);
      expect(await threadsOf(writer)).toEqual(before);
    });

    it('refuses a comment beyond the bound of a thread (100) and stores nothing more', async () => {
      const created = await writer.call(path, { method: 'POST', body: { element: { codename: 'title' }, text: '1' } });
      const thread = created.json as unknown as Thread;
      for (let n = 2; n <= 100; n++) {
        const reply = await writer.call(`${path}/${thread.id}/replies`, { method: 'POST', body: { text: String(n) } });
        expect(reply.status).toBe(201);
      }
      const over = await writer.call(`${path}/${thread.id}/replies`, { method: 'POST', body: { text: '101' } });
      expect([over.status, over.json['error_code']]).toEqual([400, 145]);
      const stored = (await threadsOf(writer)).find((t) => t.id === thread.id);
      expect(stored?.comments).toHaveLength(100);
      expect(
        (await writer.call(`${path}/${thread.id}/comments/${thread.comments[0]!.id}`, { method: 'DELETE' })).status,
      ).toBe(204);
    }, 60_000);

    it('serves management keys too, appends comment events, and lets comments go with their item', async () => {
      const keyPath = '/items/codename/first/variants/codename/default/comments';
      const byKey = await server.fetch(keyPath, {
        method: 'POST',
        body: JSON.stringify({ element: { codename: 'title' }, text: 'From a script' }),
      });
      expect(byKey.status).toBe(201);
      const listed = (await (await server.fetch(keyPath)).json()) as { threads: Thread[] };
      expect(listed.threads.map((t) => t.comments[0]?.text)).toContain('From a script');
      const events = await server.core.store.transaction((tx) =>
        tx.outbox.readAfter({ projectId: server.projectId, afterSeq: 0, limit: 1_000 }),
      );
      const ops = events.filter((e) => e.objectKind === 'comment').map((e) => e.operation);
      expect(ops).toEqual(expect.arrayContaining(['create', 'reply', 'resolve', 'reopen', 'update', 'delete']));
      expect(events.filter((e) => e.objectKind === 'comment').every((e) => e.channel === 'management')).toBe(true);
      expect((await server.fetch('/items/codename/first', { method: 'DELETE' })).status).toBe(204);
      const left = await server.core.store.db.selectFrom('comments').select('id').execute();
      expect(left).toEqual([]);
    });
  });
}

describeComments('PGlite', openTestCore);
const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describeComments('PostgreSQL', () => openPostgresTestCore(postgresUrl));
});
