import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyKind } from './api-key.ts';

/**
 * Wire form of an API key: `lct_<tag>_<key id, 32 hex>_<secret, 64 hex>`. The tag names the kind
 * for humans; the key id finds the stored row; only the secret's SHA-256 is stored. Secrets carry
 * 256 random bits, so a fast hash is enough (no password stretching needed).
 */
const tags: Readonly<Record<ApiKeyKind, string>> = {
  management: 'mgmt',
  delivery_primary: 'dp',
  delivery_secondary: 'ds',
  preview_primary: 'pp',
  preview_secondary: 'ps',
  recommendations: 'rec',
};

const pattern = /^lct_([a-z]+)_([0-9a-f]{32})_([0-9a-f]{64})$/;

export function formatKey(options: { kind: ApiKeyKind; keyId: string; secret: string }): string {
  return `lct_${tags[options.kind]}_${options.keyId.replaceAll('-', '')}_${options.secret}`;
}

/** The key id (uuid form) and secret of a presented key, or null when it is not a Lectern key. */
export function parseKey(presented: string): { keyId: string; secret: string } | null {
  const match = pattern.exec(presented);
  if (!match) return null;
  const hex = match[2] as string;
  const keyId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { keyId, secret: match[3] as string };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
