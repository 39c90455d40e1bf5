import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import { statusOfKey, type ApiKeyKind } from '../domain/api-key.ts';
import { parseKey, secretMatches } from '../domain/key-secret.ts';
import type { CoreDeps } from '../deps.ts';
import { isUuid } from '../domain/uuid.ts';
import { permissionsOfUserDocument } from './permissions.ts';
import type { ProjectUserBody } from './project-users.ts';

/** The APIs that take API keys, each with the key kinds it accepts (SPEC 5). */
export type ApiSurface = 'management' | 'delivery' | 'preview' | 'recommendations';

const acceptedKinds: Readonly<Record<ApiSurface, readonly ApiKeyKind[]>> = {
  management: ['management'],
  delivery: ['delivery_primary', 'delivery_secondary'],
  preview: ['preview_primary', 'preview_secondary'],
  recommendations: ['recommendations'],
};

const bearer = /^bearer\s+(\S+)\s*$/i;

/**
 * Turns the Authorization header of a request to `api` for `projectId` into an actor, or throws:
 * missing or unreadable key → API_KEY_MISSING / API_KEY_INVALID (401); a key of another kind →
 * API_KEY_WRONG_KIND (401); expired → API_KEY_EXPIRED (401); revoked → API_KEY_REVOKED (403,
 * error_code 7) on Management and API_KEY_INVALID (401) elsewhere (SPEC 3.2, 3.3); a key of
 * another project → PROJECT_ACCESS_DENIED (403). The published Delivery API is public unless the
 * project has secure access on; an unknown project there is PROJECT_NOT_FOUND.
 */
export async function authenticate(
  deps: CoreDeps,
  input: { api: ApiSurface; projectId: string; authorization: string | undefined },
): Promise<Actor> {
  // Reads only, on every request: outside a transaction where the store can (issue 35).
  const read = deps.store.read?.bind(deps.store) ?? deps.store.transaction.bind(deps.store);
  return read(async (tx) => {
    if (input.api === 'delivery') {
      if (!isUuid(input.projectId)) throw new LecternError('PROJECT_NOT_FOUND');
      const project = await tx.projects.get(input.projectId);
      if (!project) throw new LecternError('PROJECT_NOT_FOUND');
      if (!project.isSecureAccess) return { type: 'anonymous', projectId: project.id };
    }
    const presented = input.authorization === undefined ? null : bearer.exec(input.authorization)?.[1];
    if (!presented) throw new LecternError('API_KEY_MISSING');
    const parsed = parseKey(presented);
    // The key and its owner's roles in one read, fresh on every request: a revoked key or a
    // changed role takes effect at the very next request.
    const found = parsed ? await tx.apiKeys.getWithOwner(parsed.keyId) : null;
    const key = found?.key ?? null;
    if (!parsed || !key || !secretMatches(parsed.secret, key.secretHash)) throw new LecternError('API_KEY_INVALID');
    const status = statusOfKey(key, deps.clock.now());
    if (status === 'revoked')
      throw new LecternError(input.api === 'management' ? 'API_KEY_REVOKED' : 'API_KEY_INVALID');
    if (status === 'expired') throw new LecternError('API_KEY_EXPIRED');
    if (!acceptedKinds[input.api].includes(key.kind)) throw new LecternError('API_KEY_WRONG_KIND');
    if (key.projectId !== input.projectId) throw new LecternError('PROJECT_ACCESS_DENIED');
    const permissions =
      key.kind === 'management'
        ? permissionsOfUserDocument(key.projectId, key.ownerUserId, (found?.owner ?? null) as ProjectUserBody | null)
        : [];
    return {
      type: 'api_key',
      keyId: key.id,
      projectId: key.projectId,
      keyKind: key.kind,
      userId: key.ownerUserId,
      permissions,
    };
  });
}

/**
 * `authenticate` for a caller that presents a key without naming its project (the console's
 * sign-in): the project is the key's own, so every other check is the same.
 */
export async function authenticateKeyOfAnyProject(
  deps: CoreDeps,
  input: { api: ApiSurface; authorization: string | undefined },
): Promise<Actor> {
  const presented = input.authorization === undefined ? null : bearer.exec(input.authorization)?.[1];
  const parsed = presented ? parseKey(presented) : null;
  const key = parsed ? await deps.store.transaction((tx) => tx.apiKeys.get(parsed.keyId)) : null;
  return authenticate(deps, { ...input, projectId: key?.projectId ?? '00000000-0000-0000-0000-000000000000' });
}

export interface CachedAuthenticator {
  /** `authenticate`, answered from memory for a request like one seen within `ttlMs`. */
  authenticate(input: { api: ApiSurface; projectId: string; authorization: string | undefined }): Promise<Actor>;
  /**
   * The actor `authenticate` would answer at once, without a promise: only a success already
   * settled and within `ttlMs`; undefined otherwise (unknown, pending, failed or expired), when
   * the caller must go through `authenticate`.
   */
  peek(input: { api: ApiSurface; projectId: string; authorization: string | undefined }): Actor | undefined;
  /** Drops what is known of a project (its access settings or keys changed; null: of every project). */
  forget(projectId: string | null): void;
}

/**
 * `authenticate` for read APIs that answer most requests from memory (Delivery, Preview): the
 * outcome of each (API, project, Authorization header) — the actor or the error — is kept for
 * `ttlMs` and dropped at once by `forget`, which the `access` signal calls when a key or the
 * project's secure access changes. At most `maxEntries` outcomes are kept.
 */
export function createCachedAuthenticator(
  deps: CoreDeps,
  options: { ttlMs: number; maxEntries?: number; now?: () => number },
): CachedAuthenticator {
  const now = options.now ?? (() => performance.now());
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { projectId: string; at: number; outcome: Promise<Actor>; actor?: Actor }>();
  const keyOf = (input: { api: ApiSurface; projectId: string; authorization: string | undefined }) =>
    `${input.api}\u0000${input.projectId}\u0000${input.authorization ?? ''}`;
  return {
    authenticate(input) {
      const key = keyOf(input);
      const hit = entries.get(key);
      if (hit !== undefined && now() - hit.at <= options.ttlMs) return hit.outcome;
      const outcome = authenticate(deps, input);
      const entry: { projectId: string; at: number; outcome: Promise<Actor>; actor?: Actor } = {
        projectId: input.projectId,
        at: now(),
        outcome,
      };
      outcome.then(
        (actor) => (entry.actor = actor),
        () => undefined,
      );
      entries.set(key, entry);
      // A failure of the store itself is not an answer to keep.
      outcome.catch((error: unknown) => {
        if (!(error instanceof LecternError) && entries.get(key) === entry) entries.delete(key);
      });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value ?? key);
      return outcome;
    },
    peek(input) {
      const hit = entries.get(keyOf(input));
      return hit !== undefined && now() - hit.at <= options.ttlMs ? hit.actor : undefined;
    },
    forget(projectId) {
      if (projectId === null) entries.clear();
      else for (const [key, entry] of entries) if (entry.projectId === projectId) entries.delete(key);
    },
  };
}
