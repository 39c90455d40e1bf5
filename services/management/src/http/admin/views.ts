import type { ApiKeyView, IssuedKey, Project } from '@lectern/core';

/** Wire forms of the admin API (snake_case, like the Kontent.ai APIs). */
export function projectJson(p: Project) {
  return {
    id: p.id,
    name: p.name,
    environment: p.environment,
    secure_access: p.isSecureAccess,
    created_at: p.createdAt.toISOString(),
  };
}

export function keyJson(k: ApiKeyView) {
  return {
    id: k.id,
    project_id: k.projectId,
    kind: k.kind,
    user_email: k.ownerEmail,
    status: k.status,
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
  };
}

/** The only response that carries a key's full value. */
export function issuedKeyJson(issued: IssuedKey) {
  return { ...keyJson(issued.key), api_key: issued.secret };
}
