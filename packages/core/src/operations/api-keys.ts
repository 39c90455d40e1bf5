import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import { statusOfKey, type ApiKeyKind, type ApiKeyRecord, type ApiKeyView } from '../domain/api-key.ts';
import { formatKey, hashSecret } from '../domain/key-secret.ts';
import type { User } from '../domain/project.ts';
import type { CoreDeps } from '../deps.ts';
import type { UnitOfWork } from '../ports/store.ts';
import { requireOperator } from './require-operator.ts';
import { auditObject } from '../audit/audit-entry.ts';

/** Default validity of management keys (SPEC 3.2, 8). */
export const managementKeyValidityDays = 4000;
const dayMs = 86_400_000;
const emailPattern = /^[^\s@]+@[^\s@]+$/;

/** A key as created or regenerated: the only moment its full value exists. */
export interface IssuedKey {
  readonly key: ApiKeyView;
  readonly secret: string;
}

export interface CreateKeyInput {
  readonly actor: Actor;
  readonly projectId: string;
  readonly kind: ApiKeyKind;
  /** Management keys act as this user (created on first use). Required for management keys. */
  readonly userEmail?: string;
  /** Management keys only; default 4,000. */
  readonly validityDays?: number;
}

export async function createApiKey(deps: CoreDeps, input: CreateKeyInput): Promise<IssuedKey> {
  requireOperator(input.actor);
  if (input.kind === 'management' && (!input.userEmail || !emailPattern.test(input.userEmail))) {
    throw new LecternError('INVALID_REQUEST_BODY', {
      problems: [{ path: 'user', message: 'a management key needs the e-mail address of the user it acts as' }],
    });
  }
  const days = input.validityDays ?? managementKeyValidityDays;
  if (!Number.isInteger(days) || days < 1) {
    throw new LecternError('INVALID_REQUEST_BODY', {
      problems: [{ path: 'validity_days', message: 'must be a whole number of days, at least 1' }],
    });
  }
  return deps.store.transaction(async (tx) => {
    await requireProject(tx, input.projectId);
    const owner = input.kind === 'management' ? await ensureUser(deps, tx, input.userEmail as string) : null;
    return issue(deps, tx, {
      projectId: input.projectId,
      kind: input.kind,
      owner,
      validityDays: days,
      action: 'api_key.create',
    });
  });
}

/**
 * Revokes the key and issues its replacement in one transaction (SPEC 3.2, 3.3): same project,
 * kind and owner; a management key gets a fresh 4,000-day validity. Two concurrent regenerations
 * of one key cannot both succeed: the loser gets `conflict`.
 */
export async function regenerateApiKey(deps: CoreDeps, input: { actor: Actor; keyId: string }): Promise<IssuedKey> {
  requireOperator(input.actor);
  return deps.store.transaction(async (tx) => {
    const old = await tx.apiKeys.get(input.keyId);
    if (!old) throw new LecternError('API_KEY_NOT_FOUND');
    if (!(await tx.apiKeys.revoke(old.id, deps.clock.now()))) {
      throw new LecternError('CONFLICT', {
        message: 'This key was already revoked; regenerate its replacement instead.',
      });
    }
    const owner = old.ownerUserId === null ? null : await tx.users.get(old.ownerUserId);
    return issue(deps, tx, {
      projectId: old.projectId,
      kind: old.kind,
      owner,
      validityDays: managementKeyValidityDays,
      action: 'api_key.regenerate',
      replaces: old.id,
    });
  });
}

export async function revokeApiKey(deps: CoreDeps, input: { actor: Actor; keyId: string }): Promise<ApiKeyView> {
  requireOperator(input.actor);
  return deps.store.transaction(async (tx) => {
    const key = await tx.apiKeys.get(input.keyId);
    if (!key) throw new LecternError('API_KEY_NOT_FOUND');
    const isRevoked = await tx.apiKeys.revoke(key.id, deps.clock.now());
    if (isRevoked)
      tx.audit.note({
        projectId: key.projectId,
        action: 'api_key.revoke',
        object: auditObject('api_key', { id: key.id }),
        summary: { kind: key.kind, owner_user_id: key.ownerUserId },
      });
    const revoked = (await tx.apiKeys.get(key.id)) as ApiKeyRecord;
    return viewOf(revoked, await emailOf(tx, revoked), deps.clock.now());
  });
}

export async function listApiKeys(deps: CoreDeps, input: { actor: Actor; projectId: string }): Promise<ApiKeyView[]> {
  requireOperator(input.actor);
  return deps.store.transaction(async (tx) => {
    await requireProject(tx, input.projectId);
    const now = deps.clock.now();
    const keys = await tx.apiKeys.listByProject(input.projectId);
    return Promise.all(keys.map(async (k) => viewOf(k, await emailOf(tx, k), now)));
  });
}

async function requireProject(tx: UnitOfWork, projectId: string): Promise<void> {
  if (!(await tx.projects.get(projectId))) throw new LecternError('PROJECT_NOT_FOUND');
}

async function ensureUser(deps: CoreDeps, tx: UnitOfWork, email: string): Promise<User> {
  const normalised = email.trim().toLowerCase();
  const existing = await tx.users.findByEmail(normalised);
  if (existing) return existing;
  return tx.users.insert({
    id: deps.ids.uuid(),
    email: normalised,
    name: normalised.split('@')[0] as string,
    createdAt: deps.clock.now(),
  });
}

async function issue(
  deps: CoreDeps,
  tx: UnitOfWork,
  input: {
    projectId: string;
    kind: ApiKeyKind;
    owner: User | null;
    validityDays: number;
    action: 'api_key.create' | 'api_key.regenerate';
    replaces?: string;
  },
): Promise<IssuedKey> {
  const now = deps.clock.now();
  const secret = deps.ids.secret(32);
  const record: ApiKeyRecord = {
    id: deps.ids.uuid(),
    projectId: input.projectId,
    kind: input.kind,
    ownerUserId: input.owner?.id ?? null,
    secretHash: hashSecret(secret),
    createdAt: now,
    expiresAt: input.kind === 'management' ? new Date(now.getTime() + input.validityDays * dayMs) : null,
    revokedAt: null,
  };
  await tx.apiKeys.insert(record);
  tx.audit.note({
    projectId: record.projectId,
    action: input.action,
    object: auditObject('api_key', { id: record.id }),
    summary: {
      kind: record.kind,
      owner_user_id: record.ownerUserId,
      ...(input.replaces === undefined ? {} : { replaces_key_id: input.replaces }),
    },
  });
  return {
    key: viewOf(record, input.owner?.email ?? null, now),
    secret: formatKey({ kind: record.kind, keyId: record.id, secret }),
  };
}

async function emailOf(tx: UnitOfWork, key: ApiKeyRecord): Promise<string | null> {
  return key.ownerUserId === null ? null : ((await tx.users.get(key.ownerUserId))?.email ?? null);
}

function viewOf(key: ApiKeyRecord, ownerEmail: string | null, now: Date): ApiKeyView {
  return {
    id: key.id,
    projectId: key.projectId,
    kind: key.kind,
    ownerEmail,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    status: statusOfKey(key, now),
  };
}
