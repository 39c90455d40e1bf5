import { auditObject } from '../audit/audit-entry.ts';
import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import type { CoreDeps } from '../deps.ts';
import { assertMayChange } from '../model/shared/access.ts';
import type { ProjectUserBody } from '../operations/project-users.ts';
import type { PersonLinkPurpose } from '../ports/people.ts';
import { checkPassword, hashPassword } from './passwords.ts';
import { startPersonSession, type StartedSession } from './sessions.ts';
import { isSecretShaped, newSecret, secretDigest } from './tokens.ts';

/*
 * One-time links of people (issue 28): an invitation (valid 7 days) or a password reset (1 hour).
 * The token travels only in the link's fragment (`/app/accept#<token>`); the store keeps its
 * digest. Accepting sets the password, uses the link up (and every other link of the person) and
 * signs the person in; a reset also ends every other session of theirs.
 */

export const linkLifetimeMs: Readonly<Record<PersonLinkPurpose, number>> = {
  invite: 7 * 24 * 3_600_000,
  reset: 3_600_000,
};

export interface IssuedLink {
  /** The secret of the link (its fragment); never stored. */
  readonly token: string;
  readonly email: string;
  readonly purpose: PersonLinkPurpose;
  readonly expiresAt: Date;
  /** The name of the project it was issued for. */
  readonly projectName: string;
}

/**
 * Issues a link for a user of the project (USER_NOT_FOUND unless invited to it), for the operator
 * or whoever may manage the environment's settings.
 */
export async function issuePersonLink(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string; email: string; purpose: PersonLinkPurpose },
): Promise<IssuedLink> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  const token = newSecret();
  return deps.store.transaction(async (tx) => {
    const project = await tx.projects.get(input.projectId);
    if (!project) throw new LecternError('PROJECT_NOT_FOUND');
    const user = await tx.users.findByEmail(input.email.trim().toLowerCase());
    const member = user ? await tx.model.find<ProjectUserBody>(input.projectId, 'project_user', { id: user.id }) : null;
    if (!user || !member) throw new LecternError('USER_NOT_FOUND');
    const now = deps.clock.now();
    const expiresAt = new Date(now.getTime() + linkLifetimeMs[input.purpose]);
    await tx.people.insertLink({
      tokenHash: secretDigest(token),
      userId: user.id,
      projectId: input.projectId,
      purpose: input.purpose,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    tx.audit.note({
      projectId: input.projectId,
      action: `person_link.issue`,
      object: auditObject('user', { id: user.id, codename: user.email }),
      summary: { purpose: input.purpose },
    });
    return { token, email: user.email, purpose: input.purpose, expiresAt, projectName: project.name };
  });
}

/**
 * A reset link for whoever asks by e-mail (the app's "Forgot password"): null, and nothing stored,
 * unless the e-mail belongs to an active invited user of some project (the caller answers alike
 * either way, so no one learns which e-mails have accounts).
 */
export async function requestPasswordReset(deps: CoreDeps, input: { email: unknown }): Promise<IssuedLink | null> {
  if (typeof input.email !== 'string' || input.email.length > 320) return null;
  const email = input.email.trim().toLowerCase();
  const token = newSecret();
  return deps.store.transaction(async (tx) => {
    const user = await tx.users.findByEmail(email);
    if (!user) return null;
    let found: { id: string; name: string } | null = null;
    for (const project of await tx.projects.list()) {
      const doc = await tx.model.find<ProjectUserBody>(project.id, 'project_user', { id: user.id });
      if (doc?.body.is_active) {
        found = project;
        break;
      }
    }
    if (found === null) return null;
    const now = deps.clock.now();
    const expiresAt = new Date(now.getTime() + linkLifetimeMs.reset);
    await tx.people.insertLink({
      tokenHash: secretDigest(token),
      userId: user.id,
      projectId: found.id,
      purpose: 'reset',
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    tx.audit.note({
      projectId: found.id,
      action: 'person_link.issue',
      object: auditObject('user', { id: user.id, codename: user.email }),
      summary: { purpose: 'reset', requested_by: 'the person' },
    });
    return { token, email: user.email, purpose: 'reset', expiresAt, projectName: found.name };
  });
}

/** What the accept page shows of a link; LINK_NOT_FOUND (404) when unknown, used or expired. */
export async function describePersonLink(
  deps: CoreDeps,
  input: { token: string },
): Promise<{ email: string; purpose: PersonLinkPurpose; projectName: string | null }> {
  if (!isSecretShaped(input.token)) throw new LecternError('LINK_NOT_FOUND');
  return deps.store.transaction(async (tx) => {
    const link = await tx.people.findLink(secretDigest(input.token));
    if (!link || link.usedAt !== null || link.expiresAt <= deps.clock.now()) throw new LecternError('LINK_NOT_FOUND');
    const user = await tx.users.get(link.userId);
    if (!user) throw new LecternError('LINK_NOT_FOUND');
    const project = link.projectId === null ? null : await tx.projects.get(link.projectId);
    return { email: user.email, purpose: link.purpose, projectName: project?.name ?? null };
  });
}

/**
 * Accepts a link: checks the password (10–256 characters; 400 otherwise, the link stays usable),
 * then in one transaction uses the link up (LINK_NOT_FOUND when unknown, used or expired), stores
 * the password's hash, ends the user's other sessions on a reset and starts a new session.
 */
export async function acceptPersonLink(
  deps: CoreDeps,
  input: { token: string; password: unknown },
): Promise<StartedSession> {
  const password = checkPassword(input.password);
  if (!isSecretShaped(input.token)) throw new LecternError('LINK_NOT_FOUND');
  const tokenHash = secretDigest(input.token);
  // Fails fast on a dead link before the (slow) hashing.
  const known = await deps.store.transaction((tx) => tx.people.findLink(tokenHash));
  if (!known || known.usedAt !== null || known.expiresAt <= deps.clock.now()) throw new LecternError('LINK_NOT_FOUND');
  const hash = await hashPassword(password);
  return deps.store.transaction(async (tx) => {
    const now = deps.clock.now();
    const link = await tx.people.findLink(tokenHash);
    if (!link || !(await tx.people.useLink(tokenHash, now))) throw new LecternError('LINK_NOT_FOUND');
    const user = await tx.users.get(link.userId);
    if (!user) throw new LecternError('LINK_NOT_FOUND');
    await tx.people.setPasswordHash({ userId: user.id, hash, at: now });
    // The person's other links (an older invitation, a second reset) die with this one.
    await tx.people.retireLinksOfUser(user.id, now);
    if (link.purpose === 'reset') await tx.people.deleteSessionsOfUser(user.id);
    tx.audit.note({
      projectId: link.projectId,
      action: link.purpose === 'reset' ? 'person_link.password_reset' : 'person_link.invitation_accept',
      object: auditObject('user', { id: user.id, codename: user.email }),
      actor: { type: 'user', userId: user.id, keyId: null },
    });
    return startPersonSession(deps, tx, user);
  });
}
