import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { personBrowser } from '../../testing/person-browser.ts';
import {
  fixturePassword as password,
  openPostgresTestCore,
  startPeopleFixture,
  type PeopleFixture,
} from '../../testing/people-fixture.ts';
import type { TestManagement } from '../../testing/test-server.ts';

/*
 * People in the editor's API (issue 28), through the real app: invitation link → password →
 * session → the Management API v2 under /app/api, held to the person's roles by the same core
 * rule as keys; CSRF, other projects, live role changes, sign-out (everywhere), throttled sign-in.
 * On PGlite and on PostgreSQL. Links, resets and e-mails: people-links.int.test.ts. That hashing
 * never holds the event loop is measured where other processes add no noise:
 * packages/core/src/people/passwords.test.ts.
 */

function describePeople(engine: string, openCore: () => Promise<TestCore>): void {
  describe(`people in the editor API on ${engine}`, () => {
    let fixture: PeopleFixture;
    let server: TestManagement;
    let origin: string;
    let roleIds: Record<string, string>;
    let userIds: Record<string, string>;
    const admin: PeopleFixture['admin'] = (...args) => fixture.admin(...args);
    const invited: PeopleFixture['invited'] = (...args) => fixture.invited(...args);

    const variantPath = (projectId: string) =>
      `/v2/projects/${projectId}/items/codename/first/variants/codename/default`;
    const bodyOf = async () => {
      const response = await server.fetch('/items/codename/first/variants/codename/default');
      return (await response.json()) as { elements: { value: unknown }[]; contributors: { id: string }[] };
    };
    const put = (value: string) => ({ elements: [{ element: { codename: 'body' }, value }] });

    beforeAll(async () => {
      fixture = await startPeopleFixture({ core: await openCore() });
      ({ server, origin, roleIds, userIds } = fixture);
      await server.fetch('/types', {
        method: 'POST',
        body: JSON.stringify({
          name: 'Note',
          codename: 'note',
          elements: [{ type: 'text', name: 'Body', codename: 'body' }],
        }),
      });
      await server.fetch('/items', {
        method: 'POST',
        body: JSON.stringify({ name: 'First', codename: 'first', type: { codename: 'note' } }),
      });
      await server.fetch('/items/codename/first/variants/codename/default', {
        method: 'PUT',
        body: JSON.stringify(put('original')),
      });
    });
    afterAll(async () => {
      await fixture?.close();
    });

    it('turns an invitation into a password and a session that reads the project through the v2 routes', async () => {
      const email = 'writer@example.com';
      const invite = await admin(`/projects/${server.projectId}/users`, 'POST', {
        email,
        roles: [roleIds['Content creator']],
      });
      const token = (invite.json['invitation_url'] as string).split('#')[1] as string;
      const browser = personBrowser(origin);
      expect((await browser.call('/session')).status).toBe(401);
      expect((await browser.call(`/links/${token}`)).json).toEqual({
        email,
        purpose: 'invite',
        project_name: 'Test project',
      });
      // Too short: refused, and the link stays usable.
      const short = await browser.call(`/links/${token}`, { method: 'POST', body: { password: 'short' } });
      expect(short.status).toBe(400);
      expect(JSON.stringify(short.json)).toContain('at least 10 characters');
      const accepted = await browser.call(`/links/${token}`, { method: 'POST', body: { password } });
      expect(accepted.status).toBe(200);
      expect(accepted.json['user']).toEqual({ id: invite.json['user_id'], email });
      const cookie = accepted.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^lectern_app=[\w-]{43}; Path=\/app; HttpOnly; SameSite=Strict$/);

      const hash = await server.core.store.transaction((tx) =>
        tx.people.passwordHash(invite.json['user_id'] as string),
      );
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(hash).not.toContain(password);

      const session = await browser.call('/session');
      expect(session.status).toBe(200);
      expect(session.json).toMatchObject({
        user: { email },
        csrf_token: browser.csrf,
        projects: [
          { id: server.projectId, name: 'Test project', roles: ['Content creator'], permissions: ['manage_content'] },
        ],
      });
      const items = await browser.call(`/v2/projects/${server.projectId}/items`);
      expect(items.status).toBe(200);
      expect((items.json['items'] as { codename: string }[]).map((i) => i.codename)).toEqual(['first']);

      // The link is used up.
      expect((await personBrowser(origin).call(`/links/${token}`)).status).toBe(404);
      const again = await personBrowser(origin).call(`/links/${token}`, {
        method: 'POST',
        body: { password: 'another password entirely' },
      });
      expect(again.status).toBe(404);
      // And the password works for sign-in; a wrong one and an unknown e-mail get one answer.
      expect(await personBrowser(origin).signIn(email, password)).toBe(200);
      const wrong = await personBrowser(origin).call('/session', {
        method: 'POST',
        body: { email, password: 'wrong password!' },
      });
      const unknown = await personBrowser(origin).call('/session', {
        method: 'POST',
        body: { email: 'nobody@example.com', password },
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(unknown.json['message']).toBe(wrong.json['message']);
    });

    it("refuses a Reviewer's save (403, error_code 16) and records a Content creator's as theirs", async () => {
      const reviewer = await invited('reviewer', 'Reviewer');
      const refused = await reviewer.call(variantPath(server.projectId), { method: 'PUT', body: put('by reviewer') });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ error_code: 16, request_id: expect.any(String) });
      expect((await bodyOf()).elements[0]?.value).toBe('original');

      const creator = await invited('creator', 'Content creator');
      const saved = await creator.call(variantPath(server.projectId), { method: 'PUT', body: put('by creator') });
      expect(saved.status).toBe(200);
      const stored = await bodyOf();
      expect(stored.elements[0]?.value).toBe('by creator');
      expect(stored.contributors).toEqual([{ id: userIds['creator'] }]);
    });

    it('uploads a binary file and makes it an asset, as a Content creator; not without the CSRF header', async () => {
      const person = await invited('uploader', 'Content creator');
      const upload = (csrf: string | null) =>
        fetch(`${origin}/app/api/v2/projects/${server.projectId}/files/photo.png`, {
          method: 'POST',
          headers: {
            cookie: `lectern_app=${person.cookie}`,
            'content-type': 'image/png',
            ...(csrf === null ? {} : { 'x-csrf-token': csrf }),
          },
          // Larger than a JSON body may be: the upload must stream past the JSON guards.
          body: Buffer.alloc(1_500_000, 7),
        });
      expect((await upload(null)).status).toBe(403);
      const uploaded = await upload(person.csrf);
      expect(uploaded.status).toBe(200);
      const reference = (await uploaded.json()) as { id: string; type: string };
      expect(reference.type).toBe('internal');
      const asset = await person.call(`/v2/projects/${server.projectId}/assets`, {
        method: 'POST',
        body: { file_reference: reference, title: 'Photo' },
      });
      expect(asset.status).toBe(201);
      expect(asset.json).toMatchObject({ title: 'Photo', size: 1_500_000 });
    });

    it('refuses a change without the CSRF header, or with a stale one, and changes nothing', async () => {
      const editor = await invited('csrf', 'Content creator');
      const before = await bodyOf();
      for (const csrf of [false, 'x'.repeat(43)] as const) {
        const response = await editor.call(variantPath(server.projectId), { method: 'PUT', body: put('forged'), csrf });
        expect(response.status).toBe(403);
        expect(response.json).toMatchObject({ error_code: 4 });
      }
      expect(await bodyOf()).toEqual(before);
    });

    it('answers 401 in the Management shape without a session and 403 for a project the person is not in', async () => {
      const anonymous = await personBrowser(origin).call(`/v2/projects/${server.projectId}/items`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json).toMatchObject({ error_code: 1, request_id: expect.any(String) });
      const other = await seedProject(server.core, []);
      const person = await invited('outsider', 'Project manager');
      expect((await person.call(`/v2/projects/${other.projectId}/items`)).status).toBe(403);
      expect((await person.call(`/v2/projects/not-a-project/items`)).status).toBe(403);
      expect((await person.call(`/projects/${other.projectId}/anything`)).status).toBe(403);
      // In their own project, a project manager changes others' roles but never their own (117).
      const groups = { collection_groups: [{ collections: [], roles: [{ id: roleIds['Reviewer'], languages: [] }] }] };
      const own = await person.call(`/v2/projects/${server.projectId}/users/${userIds['outsider']}/roles`, {
        method: 'PUT',
        body: groups,
      });
      expect(own.status).toBe(400);
      expect(own.json).toMatchObject({ error_code: 117 });
    });

    it('applies a role change and a deactivation to a live session at once', async () => {
      const person = await invited('demoted', 'Content creator');
      expect(
        (await person.call(variantPath(server.projectId), { method: 'PUT', body: put('while creator') })).status,
      ).toBe(200);
      const changed = await admin(`/projects/${server.projectId}/users/demoted@example.com/roles`, 'PUT', {
        roles: [roleIds['Reviewer']],
      });
      expect(changed.status).toBe(200);
      expect(
        (await person.call(variantPath(server.projectId), { method: 'PUT', body: put('while reviewer') })).status,
      ).toBe(403);
      expect((await bodyOf()).elements[0]?.value).toBe('while creator');
      expect(((await person.call('/session')).json['projects'] as { roles: string[] }[])[0]?.roles).toEqual([
        'Reviewer',
      ]);
      // Deactivated: the session lives on, but reaches the project no more.
      await server.core.store.transaction(async (tx) => {
        const doc = await tx.model.find<{ is_active: boolean }>(server.projectId, 'project_user', {
          id: userIds['demoted'] as string,
        });
        if (doc) await tx.model.update({ ...doc, body: { ...doc.body, is_active: false } });
      });
      expect((await person.call(`/v2/projects/${server.projectId}/items`)).status).toBe(403);
      expect((await person.call('/session')).json['projects']).toEqual([]);
    });

    it('signs out one session, and everywhere', async () => {
      const first = await invited('traveller', 'Reviewer');
      const second = personBrowser(origin);
      const third = personBrowser(origin);
      expect(await second.signIn('traveller@example.com', password)).toBe(200);
      expect(await third.signIn('traveller@example.com', password)).toBe(200);
      expect((await third.call('/session', { method: 'DELETE', csrf: false })).status).toBe(403);
      expect((await third.call('/session', { method: 'DELETE' })).status).toBe(204);
      expect((await third.call('/session')).status).toBe(401);
      expect((await second.call('/session')).status).toBe(200);
      const everywhere = await first.call('/session/sign-out-everywhere', { method: 'POST' });
      expect(everywhere.json).toEqual({ ended_sessions: 2 });
      expect((await first.call('/session')).status).toBe(401);
      expect((await second.call('/session')).status).toBe(401);
      expect((await second.call(`/v2/projects/${server.projectId}/items`)).status).toBe(401);
    });

    it('locks a client out after 5 failed sign-ins (429 with Retry-After), even with the right password', async () => {
      for (let i = 0; i < 5; i++)
        expect(await personBrowser(origin).signIn('creator@example.com', 'wrong password!')).toBe(401);
      const locked = await personBrowser(origin).call('/session', {
        method: 'POST',
        body: { email: 'creator@example.com', password },
      });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(locked.json).toMatchObject({ error_code: 10000 });
    });
  });
}

describePeople('PGlite', openTestCore);

describe("a person's rate limit", () => {
  it('counts a person like a key: over the limit, 429 with error_code 10000, for that person only', async () => {
    // The test clock stands still: every request falls in one window.
    const fixture = await startPeopleFixture({ rateLimits: { perSecond: 3, perMinute: 100, perHour: 1000 } });
    try {
      const items = `/v2/projects/${fixture.server.projectId}/items`;
      const busy = await fixture.invited('busy', 'Reviewer');
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await busy.call(items)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await busy.call(items);
      expect(limited.json).toMatchObject({ error_code: 10000 });
      expect(limited.headers.get('retry-after')).not.toBeNull();
      const calm = await fixture.invited('calm', 'Reviewer');
      expect((await calm.call(items)).status).toBe(200);
    } finally {
      await fixture.close();
    }
  });
});

const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describePeople('PostgreSQL', () => openPostgresTestCore(postgresUrl));
});
