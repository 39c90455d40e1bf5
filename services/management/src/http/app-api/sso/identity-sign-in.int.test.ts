import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPersonProjects, readPersonSession, signInWithIdentity, type IdentitySignInInput } from '@lectern/core';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';

/*
 * The core of a single sign-on (signInWithIdentity) on PGlite: who is matched or created, and the
 * role claim as the truth in the environments the mapping names — granted, changed, taken away —
 * while environments it never names keep their invitations.
 */

describe('signing in with an identity from a provider', () => {
  let core: TestCore;
  let mapped: string;
  let other: string;
  const as = (input: Partial<IdentitySignInInput>): IdentitySignInInput => ({
    email: 'grace@example.com',
    isEmailVerified: true,
    name: 'Grace Hopper',
    grants: [],
    mappedProjectIds: [mapped],
    ...input,
  });
  const rolesOf = async (userId: string) =>
    Object.fromEntries((await listPersonProjects(core, { userId })).map((p) => [p.id, p.roles]));

  beforeAll(async () => {
    core = await openTestCore();
    mapped = (await seedProject(core, [])).projectId;
    other = (await seedProject(core, [])).projectId;
  });
  afterAll(async () => {
    await core?.store.close();
  });

  it('creates a new person with the granted role, and a session as a password sign-in gives', async () => {
    const started = await signInWithIdentity(core, as({ grants: [{ projectId: mapped, role: 'reviewer' }] }));
    expect(started.isNewUser).toBe(true);
    expect(started.user.email).toBe('grace@example.com');
    expect((await readPersonSession(core, started.token))?.user.id).toBe(started.user.id);
    expect(await rolesOf(started.user.id)).toEqual({ [mapped]: ['Reviewer'] });
  });

  it('matches the same person by e-mail in any case, and follows a changed claim', async () => {
    const again = await signInWithIdentity(
      core,
      as({
        email: ' GRACE@Example.COM ',
        grants: [
          { projectId: mapped, role: 'developer' },
          { projectId: mapped, role: 'reviewer' },
        ],
      }),
    );
    expect(again.isNewUser).toBe(false);
    expect((await rolesOf(again.user.id))[mapped]?.sort()).toEqual(['Developer', 'Reviewer']);
  });

  it('takes a mapped environment away when the claim no longer grants it, and leaves unmapped ones alone', async () => {
    const first = await signInWithIdentity(
      core,
      as({ grants: [{ projectId: other, role: 'content-creator' }], mappedProjectIds: [mapped, other] }),
    );
    expect(await rolesOf(first.user.id)).toEqual({ [other]: ['Content creator'] });
    // `other` is no longer in the mapping: its role, however it came, stays.
    await signInWithIdentity(core, as({ grants: [{ projectId: mapped, role: 'reviewer' }] }));
    expect(await rolesOf(first.user.id)).toEqual({ [mapped]: ['Reviewer'], [other]: ['Content creator'] });
  });

  it('refuses an unverified or missing e-mail before anything is stored', async () => {
    await expect(
      signInWithIdentity(core, as({ email: 'new@example.com', isEmailVerified: false })),
    ).rejects.toMatchObject({
      code: 'SSO_EMAIL_NOT_VERIFIED',
    });
    await expect(signInWithIdentity(core, as({ email: 'not an address' }))).rejects.toMatchObject({
      code: 'SSO_EMAIL_MISSING',
    });
    await expect(signInWithIdentity(core, as({ email: 12 }))).rejects.toMatchObject({ code: 'SSO_EMAIL_MISSING' });
    expect(await core.store.transaction((tx) => tx.users.findByEmail('new@example.com'))).toBeNull();
  });
});
