import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptPersonLink, inviteUser, issuePersonLink, operator } from '@lectern/core';
import { startTestManagement, type TestManagement } from '../../../testing/test-server.ts';
import type { SignInEvent } from './sign-in-events.ts';
import type { SsoClient } from './sso-client.ts';

/*
 * The audit log's seam: every sign-in to the editor and every refusal reaches the app's
 * SignInRecorder once, with who, how and why — a password sign-in, a wrong password, and a single
 * sign-on answer this browser never asked for. A recorder that throws changes no answer.
 */

/** A provider client for the routes only: a callback without a sign-in in progress never reaches it. */
const unusedProvider: SsoClient = {
  providerName: 'Acme ID',
  hasOperators: false,
  start: () => Promise.reject(new Error('not used by this test')),
  finish: () => Promise.reject(new Error('not used by this test')),
};

describe('sign-ins handed to the recorder', () => {
  let server: TestManagement;
  let origin: string;
  const events: SignInEvent[] = [];
  let isThrowing = false;
  const password = 'correct horse battery';

  beforeAll(async () => {
    server = await startTestManagement({
      sso: unusedProvider,
      signInRecorder: {
        record: (event) => {
          events.push(event);
          if (isThrowing) throw new Error('the audit log is down');
        },
      },
    });
    origin = server.baseUrl.replace(/\/v2$/, '');
    const { projectId, core } = server;
    const body = {
      email: 'rita@example.com',
      collection_groups: [{ collections: [], roles: [{ codename: 'project-manager', languages: [] }] }],
    };
    await inviteUser(core, { actor: operator, projectId, body });
    const link = await issuePersonLink(core, {
      actor: operator,
      projectId,
      email: 'rita@example.com',
      purpose: 'invite',
    });
    await acceptPersonLink(core, { token: link.token, password });
  });
  afterAll(async () => {
    await server?.close();
  });

  const signIn = (pw: string) =>
    fetch(`${origin}/app/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'Rita@example.com', password: pw }),
    });

  it('records a refused and a successful password sign-in', async () => {
    expect((await signIn('wrong password!')).status).toBe(401);
    const ok = await signIn(password);
    expect(ok.status).toBe(200);
    const { user } = (await ok.json()) as { user: { id: string } };
    expect(events).toMatchObject([
      {
        outcome: 'refused',
        method: 'password',
        surface: 'editor',
        email: 'rita@example.com',
        reason: 'SIGN_IN_FAILED',
        userId: null,
      },
      {
        outcome: 'signed_in',
        method: 'password',
        surface: 'editor',
        email: 'rita@example.com',
        reason: null,
        userId: user.id,
      },
    ]);
    expect(events.every((e) => typeof e.requestId === 'string' && e.at instanceof Date)).toBe(true);
  });

  it('records a single sign-on answer that no sign-in here asked for, and a failing recorder changes nothing', async () => {
    events.length = 0;
    isThrowing = true;
    const answer = await fetch(`${origin}/app/api/sso/callback?code=stolen&state=forged`, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/app/sign-in?sso_error=SSO_STATE_INVALID');
    expect(events).toMatchObject([{ outcome: 'refused', method: 'oidc', reason: 'SSO_STATE_INVALID', userId: null }]);
    expect((await signIn(password)).status).toBe(200);
    expect(events).toHaveLength(2);
    isThrowing = false;
  });

  it('answers what the sign-in screen offers', async () => {
    const options = await fetch(`${origin}/app/api/sign-in-options`);
    expect(await options.json()).toEqual({
      password: true,
      sso: { provider_name: 'Acme ID', start_url: '/app/api/sso/start' },
    });
  });
});
