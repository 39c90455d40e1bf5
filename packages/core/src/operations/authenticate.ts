import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import { statusOfKey, type ApiKeyKind } from '../domain/api-key.ts';
import { parseKey, secretMatches } from '../domain/key-secret.ts';
import type { CoreDeps } from '../deps.ts';
import { isUuid } from '../domain/uuid.ts';

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
  return deps.store.transaction(async (tx) => {
    if (input.api === 'delivery') {
      if (!isUuid(input.projectId)) throw new LecternError('PROJECT_NOT_FOUND');
      const project = await tx.projects.get(input.projectId);
      if (!project) throw new LecternError('PROJECT_NOT_FOUND');
      if (!project.isSecureAccess) return { type: 'anonymous', projectId: project.id };
    }
    const presented = input.authorization === undefined ? null : bearer.exec(input.authorization)?.[1];
    if (!presented) throw new LecternError('API_KEY_MISSING');
    const parsed = parseKey(presented);
    const key = parsed ? await tx.apiKeys.get(parsed.keyId) : null;
    if (!parsed || !key || !secretMatches(parsed.secret, key.secretHash)) throw new LecternError('API_KEY_INVALID');
    const status = statusOfKey(key, deps.clock.now());
    if (status === 'revoked')
      throw new LecternError(input.api === 'management' ? 'API_KEY_REVOKED' : 'API_KEY_INVALID');
    if (status === 'expired') throw new LecternError('API_KEY_EXPIRED');
    if (!acceptedKinds[input.api].includes(key.kind)) throw new LecternError('API_KEY_WRONG_KIND');
    if (key.projectId !== input.projectId) throw new LecternError('PROJECT_ACCESS_DENIED');
    return { type: 'api_key', keyId: key.id, projectId: key.projectId, keyKind: key.kind, userId: key.ownerUserId };
  });
}
