import { randomIds } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestClock, createTestDatabase, type TestCore } from '@lectern/testing';
import type { RateLimits } from '../http/rate-limit.ts';
import type { SignInThrottleOptions } from '../http/web-session/sign-in-throttle.ts';
import { startTestManagement, type TestManagement } from './test-server.ts';
import { personBrowser, type PersonBrowser } from './person-browser.ts';

export const fixtureOperatorToken = 'operator-token-for-the-people-test-0123456789';
/** The password every invited person of the fixture chooses. */
export const fixturePassword = 'correct horse battery';

export interface SentLink {
  readonly to: string;
  readonly url: string;
  readonly purpose: string;
  readonly projectName?: string | undefined;
}

/** A Management app with an operator token and a recording link mailer, for the people tests. */
export interface PeopleFixture {
  readonly server: TestManagement;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Role ids by name (`Content creator`). */
  readonly roleIds: Record<string, string>;
  /** User ids of the people `invited` made, by their short name. */
  readonly userIds: Record<string, string>;
  /** The links e-mailed so far. */
  readonly mails: SentLink[];
  /** Other e-mails sent so far (comment mentions). */
  readonly texts: { to: readonly string[]; subject: string; text: string }[];
  admin(path: string, method?: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  /** Invites `<who>@example.com` as `role` (admin API) and accepts the link with the fixture password. */
  invited(who: string, role: string): Promise<PersonBrowser>;
  close(): Promise<void>;
}

export async function startPeopleFixture(
  options: {
    core?: TestCore;
    publicUrl?: string;
    personRateLimits?: RateLimits;
    signInThrottle?: SignInThrottleOptions;
  } = {},
): Promise<PeopleFixture> {
  const mails: SentLink[] = [];
  const texts: PeopleFixture['texts'] = [];
  const server = await startTestManagement({
    ...(options.core ? { core: options.core } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.personRateLimits ? { personRateLimits: options.personRateLimits } : {}),
    ...(options.signInThrottle ? { signInThrottle: options.signInThrottle } : {}),
    operatorToken: fixtureOperatorToken,
    linkMailer: {
      publicUrl: 'https://editor.example.com',
      send: async (mail) => {
        mails.push(mail);
      },
      sendText: async (mail) => {
        texts.push(mail);
      },
    },
  });
  const origin = server.baseUrl.replace(/\/v2$/, '');
  const admin: PeopleFixture['admin'] = async (path, method = 'GET', body) => {
    const response = await fetch(`${origin}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${fixtureOperatorToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const roleIds: Record<string, string> = {};
  for (const r of (await admin(`/projects/${server.projectId}/roles`)).json['roles'] as { id: string; name: string }[])
    roleIds[r.name] = r.id;
  const userIds: Record<string, string> = {};
  return {
    server,
    origin,
    roleIds,
    userIds,
    mails,
    texts,
    admin,
    async invited(who, role) {
      const invite = await admin(`/projects/${server.projectId}/users`, 'POST', {
        email: `${who}@example.com`,
        roles: [roleIds[role]],
      });
      if (invite.status !== 201) throw new Error(`invite answered ${invite.status}: ${JSON.stringify(invite.json)}`);
      userIds[who] = invite.json['user_id'] as string;
      const token = (invite.json['invitation_url'] as string).split('#')[1] as string;
      const browser = personBrowser(origin);
      const accepted = await browser.call(`/links/${token}`, { method: 'POST', body: { password: fixturePassword } });
      if (accepted.status !== 200) throw new Error(`accepting the invitation answered ${accepted.status}`);
      return browser;
    },
    close: () => server.close(),
  };
}

/** A test core on a fresh database of the test PostgreSQL server. */
export async function openPostgresTestCore(postgresUrl: string): Promise<TestCore> {
  return {
    store: await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
    clock: createTestClock(),
    ids: randomIds,
  };
}
