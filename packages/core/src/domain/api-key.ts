/**
 * Key kinds (SPEC 5). Slots: a project has at most one active key of each delivery, preview and
 * recommendations kind, and at most one active management key per user.
 */
export const apiKeyKinds = [
  'management',
  'delivery_primary',
  'delivery_secondary',
  'preview_primary',
  'preview_secondary',
  'recommendations',
] as const;
export type ApiKeyKind = (typeof apiKeyKinds)[number];

export function isApiKeyKind(value: string): value is ApiKeyKind {
  return (apiKeyKinds as readonly string[]).includes(value);
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly projectId: string;
  readonly kind: ApiKeyKind;
  /** The user whose identity a management key carries (SPEC 5); null for shared keys. */
  readonly ownerUserId: string | null;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  readonly secretHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
}

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

export function statusOfKey(key: ApiKeyRecord, now: Date): ApiKeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** What callers may see of a key: never the hash. */
export interface ApiKeyView {
  readonly id: string;
  readonly projectId: string;
  readonly kind: ApiKeyKind;
  readonly ownerEmail: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly status: ApiKeyStatus;
}
