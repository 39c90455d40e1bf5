import { LecternError } from '@lectern/errors';
import type { Actor, Permission } from '../domain/actor.ts';
import type { User } from '../domain/project.ts';
import { isUuid } from '../domain/uuid.ts';
import type { CoreDeps } from '../deps.ts';
import { listRolesOf } from '../model/settings/roles.ts';
import { membershipOfPerson } from '../operations/permissions.ts';
import type { UnitOfWork } from '../ports/store.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { auditObject, type NewAuditEntry } from '../audit/audit-entry.ts';
import { recordSignIn } from '../audit/audit-log.ts';
import { isSecretShaped, newSecret, secretDigest } from './tokens.ts';

/*
 * Sessions of people (issue 28). The browser holds a random session id (in a cookie); the store
 * holds its digest, the user and the CSRF token. A session ends when signed out, after 12 hours
 * without use (as the console's), or with all the user's others (sign-out everywhere, a password
 * reset). What a person may do is never kept in the session: it is read from their current roles
 * on every request.
 */

export const personSessionIdleMs = 12 * 3_600_000;
/** A use within this time of the last recorded one is not written again (fewer writes per request). */
const touchGranularityMs = 60_000;

export interface StartedSession {
  /** The session id for the cookie: a secret, never stored. */
  readonly token: string;
  readonly csrfToken: string;
  readonly user: { readonly id: string; readonly email: string };
}

/** Starts a session of `user` (inside the caller's transaction); sessions idle too long go first. */
export async function startPersonSession(deps: CoreDeps, tx: UnitOfWork, user: User): Promise<StartedSession> {
  const token = newSecret();
  const csrfToken = newSecret();
  const now = deps.clock.now();
  // The only sweep of dead sessions: cheap (indexed by last use), and sign-ins are few.
  await tx.people.deleteSessionsIdleSince(new Date(now.getTime() - personSessionIdleMs));
  await tx.people.insertSession({
    idHash: secretDigest(token),
    userId: user.id,
    csrfToken,
    createdAt: now,
    lastUsedAt: now,
  });
  return { token, csrfToken, user: { id: user.id, email: user.email } };
}

/**
 * Signs in by e-mail and password: a new session, or SIGN_IN_FAILED (401) alike for an unknown
 * e-mail, a user without a password and a wrong password (each costs one argon2 verification).
 */
export async function signInPerson(
  deps: CoreDeps,
  input: { email: unknown; password: unknown },
): Promise<StartedSession> {
  // No e-mail address is longer than 320 characters; a longer one matches no one (and is not looked up).
  const email = typeof input.email === 'string' && input.email.length <= 320 ? input.email.trim().toLowerCase() : '';
  const password = typeof input.password === 'string' ? input.password : '';
  const found = await deps.store.transaction(async (tx) => {
    const user = email === '' ? null : await tx.users.findByEmail(email);
    return { user, hash: user ? await tx.people.passwordHash(user.id) : null };
  });
  // Hashing happens outside the transaction (it takes tens of milliseconds on the thread pool).
  const isMatch = await verifyPassword(password.slice(0, 1024), found.hash ?? decoyHash);
  if (!found.user || found.hash === null || !isMatch) {
    await recordSignIn(deps, {
      method: 'password',
      isSuccess: false,
      userId: null,
      email: email === '' ? null : email,
      reason: found.user ? 'wrong_password' : 'unknown_email',
    });
    throw new LecternError('SIGN_IN_FAILED');
  }
  const user = found.user;
  return deps.store.transaction(async (tx) => {
    const started = await startPersonSession(deps, tx, user);
    tx.audit.note(signInEntry({ method: 'password', user }));
    return started;
  });
}

export interface PersonSessionState {
  readonly sessionId: string;
  readonly csrfToken: string;
  readonly user: { readonly id: string; readonly email: string };
}

/**
 * The live session of a session id from a cookie, or null (unknown, signed out, idle for 12
 * hours: then it is removed). Records the use.
 */
export async function readPersonSession(deps: CoreDeps, token: string | null): Promise<PersonSessionState | null> {
  if (!isSecretShaped(token)) return null;
  const idHash = secretDigest(token);
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const session = await tx.people.findSession(idHash);
    if (!session) return null;
    if (now.getTime() - session.lastUsedAt.getTime() > personSessionIdleMs) {
      await tx.people.deleteSession(idHash);
      return null;
    }
    const user = await tx.users.get(session.userId);
    if (!user) return null;
    if (now.getTime() - session.lastUsedAt.getTime() >= touchGranularityMs) await tx.people.touchSession(idHash, now);
    return { sessionId: idHash, csrfToken: session.csrfToken, user: { id: user.id, email: user.email } };
  });
}

/**
 * The actor of a session in `projectId`: SESSION_REQUIRED (401) without a live session,
 * PROJECT_ACCESS_DENIED (403) unless the person is an active invited user of the project. The
 * permissions come from their roles now.
 */
export async function authenticatePerson(
  deps: CoreDeps,
  input: { token: string | null; projectId: string },
): Promise<{ actor: Actor; session: PersonSessionState }> {
  const session = await readPersonSession(deps, input.token);
  if (!session) throw new LecternError('SESSION_REQUIRED');
  if (!isUuid(input.projectId)) throw new LecternError('PROJECT_ACCESS_DENIED');
  const membership = await deps.store.transaction((tx) =>
    membershipOfPerson(tx, { projectId: input.projectId, userId: session.user.id }),
  );
  if (!membership) throw new LecternError('PROJECT_ACCESS_DENIED');
  return {
    session,
    actor: {
      type: 'person',
      userId: session.user.id,
      projectId: input.projectId,
      permissions: membership.permissions,
      sessionId: session.sessionId,
    },
  };
}

export interface PersonProject {
  readonly id: string;
  readonly name: string;
  readonly environment: string;
  readonly roles: string[];
  readonly permissions: Permission[];
}

/** The projects (environments) where the user is an active invited user, with their roles there. */
export async function listPersonProjects(deps: CoreDeps, input: { userId: string }): Promise<PersonProject[]> {
  return deps.store.transaction(async (tx) => {
    const out: PersonProject[] = [];
    for (const project of await tx.projects.list()) {
      const membership = await membershipOfPerson(tx, { projectId: project.id, userId: input.userId });
      if (!membership) continue;
      const names = new Map(listRolesOf(project.id).map((r) => [r.id, r.name]));
      out.push({
        id: project.id,
        name: project.name,
        environment: project.environment,
        roles: membership.roleIds.map((id) => names.get(id) ?? id),
        permissions: membership.permissions,
      });
    }
    return out;
  });
}

/** Ends the session of this session id (nothing when there is none). */
export async function signOutPerson(deps: CoreDeps, token: string | null): Promise<void> {
  if (!isSecretShaped(token)) return;
  await deps.store.transaction(async (tx) => {
    const session = await tx.people.findSession(secretDigest(token));
    await tx.people.deleteSession(secretDigest(token));
    if (session)
      tx.audit.note({
        projectId: null,
        action: 'session.sign_out',
        object: auditObject('session', { id: session.userId }),
        actor: { type: 'user', userId: session.userId, keyId: null },
      });
  });
}

/** Ends every session of the user, on every replica; returns how many ended. */
export async function signOutEverywhere(deps: CoreDeps, input: { userId: string }): Promise<number> {
  return deps.store.transaction(async (tx) => {
    const ended = await tx.people.deleteSessionsOfUser(input.userId);
    tx.audit.note({
      projectId: null,
      action: 'session.sign_out_everywhere',
      object: auditObject('session', { id: input.userId }),
      summary: { sessions: ended },
      actor: { type: 'user', userId: input.userId, keyId: null },
    });
    return ended;
  });
}

/** The audit entry of a successful sign-in of `user` (for every way in: password, OpenID Connect). */
export function signInEntry(input: {
  method: 'password' | 'oidc';
  user: { id: string; email: string };
}): NewAuditEntry {
  return {
    projectId: null,
    action: 'session.sign_in',
    object: auditObject('session', { id: input.user.id, codename: input.user.email }),
    summary: { method: input.method },
    actor: { type: 'user', userId: input.user.id, keyId: null },
  };
}
