import { createHash, randomBytes } from 'node:crypto';

/** A fresh random secret (256 bits, base64url): a session id, a CSRF token or a link token. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a secret: its SHA-256, base64url (a secret has 256 bits; no salt needed). */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Whether a presented string can be one of our secrets at all (so junk never reaches the store). */
export function isSecretShaped(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
