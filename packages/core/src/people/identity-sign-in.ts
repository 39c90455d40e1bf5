import { LecternError } from '@lectern/errors';
import type { User } from '../domain/project.ts';
import type { CoreDeps } from '../deps.ts';
import { roleId } from '../model/settings/roles.ts';
import type { ProjectUserBody, ProjectUserRecord } from '../operations/project-users.ts';
import type { UnitOfWork } from '../ports/store.ts';
import { signInEntry, startPersonSession, type StartedSession } from './sessions.ts';

/*
 * Sign-in through an identity provider (OpenID Connect, docs/sso.md). The HTTP layer has already
 * checked the provider's answer (state, nonce, PKCE, the ID token's signature); this operation
 * decides who the person is and what they may do:
 *
 * - The person is matched by their e-mail address, which the provider must vouch for (verified):
 *   an unverified address is refused (SSO_EMAIL_NOT_VERIFIED), since anyone may type any address
 *   into a provider's profile. A person unknown to Lectern is created.
 * - Roles. `grants` are the environments (and built-in roles) the provider's role claim maps to.
 *   For every environment the mapping names at all (`mappedProjectIds`), the claim is the truth:
 *   the person becomes an active user there with exactly the granted roles (in every collection and
 *   language), or is made inactive when the claim grants nothing there any more. Environments the
 *   mapping never names are left to invitations, as for a password sign-in.
 * - The session is the same as a password sign-in's.
 */

/** Built-in role keys a mapping may grant (the keys of `roleId`). */
export const grantableRoles = ['project-manager', 'developer', 'content-creator', 'reviewer'] as const;
export type GrantableRole = (typeof grantableRoles)[number];

export interface IdentityGrant {
  readonly projectId: string;
  readonly role: GrantableRole;
}

export interface IdentitySignInInput {
  /** The provider's e-mail claim; anything but a plausible address is refused. */
  readonly email: unknown;
  /** Whether the provider vouches for the address (its `email_verified`, or the configured claim). */
  readonly isEmailVerified: boolean;
  /** The provider's display name of the person, for a new user's name. */
  readonly name?: string | undefined;
  readonly grants: readonly IdentityGrant[];
  /** Every environment the role mapping names, granted or not. */
  readonly mappedProjectIds: readonly string[];
}

export interface IdentitySignedIn extends StartedSession {
  /** Whether the user was created by this sign-in. */
  readonly isNewUser: boolean;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The e-mail claim normalized (trimmed, lower case), or null when it is not a plausible address. */
export function identityEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 320) return null;
  const email = value.trim().toLowerCase();
  return emailPattern.test(email) ? email : null;
}

/** Signs a person in from a provider's verified claims: matched or created by e-mail, roles applied. */
export async function signInWithIdentity(deps: CoreDeps, input: IdentitySignInInput): Promise<IdentitySignedIn> {
  const email = identityEmail(input.email);
  if (email === null) throw new LecternError('SSO_EMAIL_MISSING');
  if (!input.isEmailVerified) throw new LecternError('SSO_EMAIL_NOT_VERIFIED');
  return deps.store.transaction(async (tx) => {
    const existing = await tx.users.findByEmail(email);
    const name = input.name?.trim().slice(0, 200) || email;
    const user = existing ?? (await tx.users.insert({ id: deps.ids.uuid(), email, name, createdAt: deps.clock.now() }));
    for (const projectId of new Set(input.mappedProjectIds)) {
      const roles = input.grants.filter((g) => g.projectId === projectId).map((g) => g.role);
      // A mapped environment that is gone (deleted after the setting was written) is skipped.
      if (!(await tx.projects.get(projectId))) continue;
      await applyMappedRoles(deps, tx, { projectId, user, roles: [...new Set(roles)] });
    }
    const started = await startPersonSession(deps, tx, user);
    tx.audit.note(signInEntry({ method: 'oidc', user }));
    return { ...started, isNewUser: existing === null };
  });
}

/** Makes the person's user document in `projectId` hold exactly `roles` (inactive when none). */
async function applyMappedRoles(
  deps: CoreDeps,
  tx: UnitOfWork,
  input: { projectId: string; user: User; roles: GrantableRole[] },
): Promise<void> {
  const { projectId, user, roles } = input;
  await tx.model.lockKind(projectId, 'project_user');
  const current = await tx.model.find<ProjectUserBody>(
    projectId,
    'project_user',
    { id: user.id },
    { isForUpdate: true },
  );
  const groups =
    roles.length === 0
      ? null
      : [{ collections: [], roles: roles.map((r) => ({ id: roleId(projectId, r), languages: [] })) }];
  const now = deps.clock.now();
  if (!current) {
    if (groups === null) return;
    const record: ProjectUserRecord = {
      projectId,
      kind: 'project_user',
      id: user.id,
      codename: `user_${user.id.replaceAll('-', '')}`,
      externalId: null,
      body: { email: user.email, collection_groups: groups, is_active: true, invited_at: now.toISOString() },
      lastModified: now,
    };
    await tx.model.insert(record);
    return;
  }
  const body: ProjectUserBody =
    groups === null
      ? { ...current.body, is_active: false }
      : { ...current.body, collection_groups: groups, is_active: true };
  if (JSON.stringify(body) === JSON.stringify(current.body)) return;
  await tx.model.update({ ...current, body, lastModified: now });
}
