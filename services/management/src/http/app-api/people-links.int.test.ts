import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestCore, type TestCore } from '@lectern/testing';
import { personBrowser } from '../../testing/person-browser.ts';
import {
  fixturePassword as password,
  openPostgresTestCore,
  startPeopleFixture,
  type PeopleFixture,
} from '../../testing/people-fixture.ts';
import type { TestManagement } from '../../testing/test-server.ts';

/*
 * People's one-time links and sessions over time (issue 28), through the real app: expired and
 * used reset links, a reset ending the other sessions, 12 hours idle, reset and invitation
 * e-mails, the Secure cookie under an https public URL. On PGlite and on PostgreSQL.
 */

function describeLinks(engine: string, openCore: () => Promise<TestCore>): void {
  describe(`people's links on ${engine}`, () => {
    let fixture: PeopleFixture;
    let server: TestManagement;
    let origin: string;
    let roleIds: Record<string, string>;
    let mails: PeopleFixture['mails'];
    const admin: PeopleFixture['admin'] = (...args) => fixture.admin(...args);
    const invited: PeopleFixture['invited'] = (...args) => fixture.invited(...args);

    beforeAll(async () => {
      // Failed sign-ins are part of these tests, not their subject: no lock here.
      fixture = await startPeopleFixture({ core: await openCore(), signInThrottle: { maxFailures: 1000 } });
      ({ server, origin, roleIds, mails } = fixture);
      // The e-mailed reset goes to a person of some environment.
      await invited('creator', 'Content creator');
    });
    afterAll(async () => {
      await fixture?.close();
    });

    it('refuses an expired reset link; a used reset link ends the other sessions', async () => {
      await invited('forgetful', 'Reviewer');
      const issue = async () =>
        (await admin(`/projects/${server.projectId}/users/forgetful@example.com/links`, 'POST', { purpose: 'reset' }))
          .json['url'] as string;
      const stale = (await issue()).split('#')[1] as string;
      server.core.clock.advance(61 * 60_000);
      expect((await personBrowser(origin).call(`/links/${stale}`)).status).toBe(404);
      const late = await personBrowser(origin).call(`/links/${stale}`, {
        method: 'POST',
        body: { password: 'a new password!' },
      });
      expect(late.status).toBe(404);

      const other = personBrowser(origin);
      expect(await other.signIn('forgetful@example.com', password)).toBe(200);
      const fresh = (await issue()).split('#')[1] as string;
      const sibling = (await issue()).split('#')[1] as string;
      const reset = await personBrowser(origin).call(`/links/${fresh}`, {
        method: 'POST',
        body: { password: 'a new password!' },
      });
      expect(reset.status).toBe(200);
      expect((await other.call('/session')).status).toBe(401);
      expect(await personBrowser(origin).signIn('forgetful@example.com', password)).toBe(401);
      expect(await personBrowser(origin).signIn('forgetful@example.com', 'a new password!')).toBe(200);
      // The second link issued meanwhile died with the first one used.
      expect((await personBrowser(origin).call(`/links/${sibling}`)).status).toBe(404);
    });

    it('answers hostile input with a 4xx in the Management shape, never a 5xx', async () => {
      const browser = personBrowser(origin);
      const cases: [string, string, unknown, number][] = [
        ['/session', 'POST', ['an', 'array'], 401],
        ['/session', 'POST', { email: { $ne: null }, password: { length: 99 } }, 401],
        ['/session', 'POST', { email: 'x'.repeat(100_000), password: 'y'.repeat(100_000) }, 401],
        ['/links/not-a-token', 'GET', undefined, 404],
        [`/links/${'A'.repeat(43)}`, 'POST', { password: 12345678901 }, 400],
        [`/links/${'A'.repeat(43)}`, 'POST', { password: 'long enough password' }, 404],
        ['/password-reset', 'POST', { email: ['creator@example.com'] }, 202],
        ['/session/sign-out-everywhere', 'POST', {}, 401],
      ];
      for (const [path, method, body, status] of cases) {
        const response = await browser.call(path, { method, ...(body === undefined ? {} : { body }) });
        expect([path, method, response.status]).toEqual([path, method, status]);
        if (status !== 202)
          expect(response.json).toMatchObject({ error_code: expect.any(Number), request_id: expect.any(String) });
      }
      const notJson = await fetch(`${origin}/app/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email": ',
      });
      expect(notJson.status).toBe(400);
    });

    it('ends a session after 12 hours idle', async () => {
      const person = await invited('idle', 'Reviewer');
      server.core.clock.advance(11 * 3_600_000);
      expect((await person.call('/session')).status).toBe(200);
      server.core.clock.advance(12 * 3_600_000 + 1000);
      expect((await person.call('/session')).status).toBe(401);
    });

    it('answers every reset request alike and e-mails a link only to a person', async () => {
      const known = await personBrowser(origin).call('/password-reset', {
        method: 'POST',
        body: { email: 'creator@example.com' },
      });
      const unknown = await personBrowser(origin).call('/password-reset', {
        method: 'POST',
        body: { email: 'stranger@example.com' },
      });
      expect([known.status, unknown.status]).toEqual([202, 202]);
      expect(known.json).toEqual(unknown.json);
      await expect.poll(() => mails.length).toBe(1);
      expect(mails[0]?.to).toBe('creator@example.com');
      expect(mails[0]?.url).toMatch(/^https:\/\/editor\.example\.com\/app\/accept#[\w-]{43}$/);
      const token = mails[0]?.url.split('#')[1] as string;
      expect((await personBrowser(origin).call(`/links/${token}`)).json).toMatchObject({ purpose: 'reset' });
    });

    it('e-mails the invitation link of a person invited through the Management API', async () => {
      const invited = await server.fetch('/users', {
        method: 'POST',
        body: JSON.stringify({
          email: 'newcomer@example.com',
          collection_groups: [{ collections: [], roles: [{ id: roleIds['Reviewer'], languages: [] }] }],
        }),
      });
      expect(invited.status).toBe(201);
      await expect.poll(() => mails.some((m) => m.to === 'newcomer@example.com')).toBe(true);
      const mail = mails.find((m) => m.to === 'newcomer@example.com');
      expect(mail).toMatchObject({ purpose: 'invite', projectName: 'Test project' });
      const browser = personBrowser(origin);
      const accepted = await browser.call(`/links/${mail?.url.split('#')[1]}`, { method: 'POST', body: { password } });
      expect(accepted.status).toBe(200);
      expect((await browser.call(`/v2/projects/${server.projectId}/items`)).status).toBe(200);
    });
  });
}

describeLinks('PGlite', openTestCore);

describe('the editor session cookie over HTTPS', () => {
  it('is Secure when the public URL is https, whatever the request says', async () => {
    const fixture = await startPeopleFixture({ publicUrl: 'https://cms.example.com' });
    try {
      const { server, origin, roleIds } = fixture;
      const invite = await fixture.admin(`/projects/${server.projectId}/users`, 'POST', {
        email: 'tls@example.com',
        roles: [roleIds['Reviewer']],
      });
      // The link names the public URL, not the address the request came to.
      const url = invite.json['invitation_url'] as string;
      expect(url).toMatch(/^https:\/\/cms\.example\.com\/app\/accept#/);
      const accepted = await personBrowser(origin).call(`/links/${url.split('#')[1]}`, {
        method: 'POST',
        body: { password },
      });
      expect(accepted.headers.get('set-cookie')).toMatch(/; Path=\/app; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      await fixture.close();
    }
  });
});

const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describeLinks('PostgreSQL', () => openPostgresTestCore(postgresUrl));
});
