import { describe, expect, it } from 'vitest';
import type { PersonLink, Store } from '@lectern/core';

const p1 = '11111111-1111-4111-8111-111111111111';
const u1 = 'a1000000-0000-4000-8000-000000000001';
const u2 = 'a2000000-0000-4000-8000-000000000002';
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

/**
 * The people repository (issue 28): password hashes, one-time links used at most once, sessions
 * ended one by one, per user or when idle (`store` is the contract's fresh store).
 */
export function describeStorePeopleContract(store: () => Store): void {
  describe('people', () => {
    async function seed(): Promise<void> {
      await store().transaction(async (tx) => {
        await tx.projects.insert({
          id: p1,
          name: 'P',
          environment: 'Production',
          isSecureAccess: false,
          isProduction: true,
          createdAt: at(0),
        });
        for (const [id, email] of [
          [u1, 'one@example.com'],
          [u2, 'two@example.com'],
        ] as const)
          await tx.users.insert({ id, email, name: email, createdAt: at(0) });
      });
    }

    it('sets and replaces a password hash per user', async () => {
      await seed();
      expect(await store().transaction((tx) => tx.people.passwordHash(u1))).toBeNull();
      await store().transaction((tx) => tx.people.setPasswordHash({ userId: u1, hash: '$argon2id$first', at: at(1) }));
      await store().transaction((tx) => tx.people.setPasswordHash({ userId: u1, hash: '$argon2id$second', at: at(2) }));
      expect(await store().transaction((tx) => tx.people.passwordHash(u1))).toBe('$argon2id$second');
      expect(await store().transaction((tx) => tx.people.passwordHash(u2))).toBeNull();
    });

    it('uses a link at most once, never after it expired; retires the unused links of a user', async () => {
      await seed();
      const link = (tokenHash: string, expiresAt: Date): PersonLink => ({
        tokenHash,
        userId: u1,
        projectId: p1,
        purpose: 'invite',
        createdAt: at(0),
        expiresAt,
        usedAt: null,
      });
      await store().transaction(async (tx) => {
        await tx.people.insertLink(link('live', at(100)));
        await tx.people.insertLink({ ...link('gone', at(10)), purpose: 'reset', projectId: null });
      });
      expect(await store().transaction((tx) => tx.people.findLink('live'))).toEqual(link('live', at(100)));
      expect(await store().transaction((tx) => tx.people.findLink('absent'))).toBeNull();
      const attempts = await Promise.all(
        [1, 2, 3].map(() => store().transaction((tx) => tx.people.useLink('live', at(50)))),
      );
      expect(attempts.filter(Boolean)).toHaveLength(1);
      expect((await store().transaction((tx) => tx.people.findLink('live')))?.usedAt).toEqual(at(50));
      expect(await store().transaction((tx) => tx.people.useLink('gone', at(10)))).toBe(false);
      expect(await store().transaction((tx) => tx.people.useLink('absent', at(1)))).toBe(false);
      expect(await store().transaction((tx) => tx.people.findLink('gone'))).toMatchObject({
        purpose: 'reset',
        projectId: null,
        usedAt: null,
      });
      // Retiring a user's links marks only the unused ones (the used one keeps its time).
      await store().transaction((tx) => tx.people.insertLink({ ...link('other', at(100)), userId: u2 }));
      expect(await store().transaction((tx) => tx.people.retireLinksOfUser(u1, at(60)))).toBe(1);
      expect((await store().transaction((tx) => tx.people.findLink('gone')))?.usedAt).toEqual(at(60));
      expect((await store().transaction((tx) => tx.people.findLink('live')))?.usedAt).toEqual(at(50));
      expect((await store().transaction((tx) => tx.people.findLink('other')))?.usedAt).toBeNull();
    });

    it('ends sessions one by one, all of a user, and those idle since a time', async () => {
      await seed();
      const session = (idHash: string, userId: string, lastUsed: number) => ({
        idHash,
        userId,
        csrfToken: `csrf-${idHash}`,
        createdAt: at(0),
        lastUsedAt: at(lastUsed),
      });
      await store().transaction(async (tx) => {
        await tx.people.insertSession(session('a', u1, 1));
        await tx.people.insertSession(session('b', u1, 2));
        await tx.people.insertSession(session('c', u2, 3));
        await tx.people.insertSession(session('d', u2, 4));
      });
      expect(await store().transaction((tx) => tx.people.findSession('a'))).toEqual(session('a', u1, 1));
      await store().transaction((tx) => tx.people.touchSession('a', at(40)));
      expect((await store().transaction((tx) => tx.people.findSession('a')))?.lastUsedAt).toEqual(at(40));
      expect(await store().transaction((tx) => tx.people.deleteSession('b'))).toBe(true);
      expect(await store().transaction((tx) => tx.people.deleteSession('b'))).toBe(false);
      expect(await store().transaction((tx) => tx.people.deleteSessionsIdleSince(at(4)))).toBe(1);
      expect(await store().transaction((tx) => tx.people.findSession('c'))).toBeNull();
      expect(await store().transaction((tx) => tx.people.findSession('d'))).not.toBeNull();
      expect(await store().transaction((tx) => tx.people.deleteSessionsOfUser(u1))).toBe(1);
      expect(await store().transaction((tx) => tx.people.findSession('a'))).toBeNull();
      expect(await store().transaction((tx) => tx.people.findSession('d'))).not.toBeNull();
    });
  });
}
