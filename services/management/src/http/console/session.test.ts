import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import type { CoreDeps } from '@lectern/core';
import { createSessionStore, digest, maxSessions, maxSessionsPerCredential, sessionCookie } from './session.ts';

/** Issue 27, finding 10: one credential's sign-ins must not end anyone else's session. */
const operatorToken = 'o'.repeat(64);
const requestWith = (id: string) => ({ headers: { cookie: `${sessionCookie}=${id}` } }) as unknown as Request;
// Only the operator's sessions are resolved here: no core is needed for them.
const core = {} as CoreDeps;

describe('console sessions', () => {
  it('keep the operator signed in however many sessions management keys open, up to the global cap and past it', async () => {
    const sessions = createSessionStore(core, operatorToken);
    const mine = sessions.start({ type: 'operator', tokenDigest: digest(operatorToken) });
    const keys = Math.ceil(maxSessions / maxSessionsPerCredential) + 5;
    for (let i = 0; i < keys * maxSessionsPerCredential; i++)
      sessions.start({ type: 'key', key: `key-${i % keys}`, projectId: 'p' });
    expect(await sessions.resolve(requestWith(mine.id))).toMatchObject({ projectId: null });
  });

  it("hold at most 20 per credential: a key's 21st sign-in ends that key's oldest session only", async () => {
    const sessions = createSessionStore(core, operatorToken);
    const operatorSessions = Array.from({ length: maxSessionsPerCredential }, () =>
      sessions.start({ type: 'operator', tokenDigest: digest(operatorToken) }),
    );
    for (let i = 0; i < 10_000; i++) sessions.start({ type: 'key', key: 'one-key', projectId: 'p' });
    for (const s of operatorSessions) expect(await sessions.resolve(requestWith(s.id))).not.toBeNull();
    // The operator's own 21st sign-in ends the operator's oldest session.
    sessions.start({ type: 'operator', tokenDigest: digest(operatorToken) });
    expect(await sessions.resolve(requestWith(operatorSessions[0]?.id ?? ''))).toBeNull();
    expect(await sessions.resolve(requestWith(operatorSessions[1]?.id ?? ''))).not.toBeNull();
  });
});
