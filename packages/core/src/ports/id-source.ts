import { randomBytes, randomUUID } from 'node:crypto';

/** Where generated identifiers and secrets come from. */
export interface IdSource {
  /** A random UUID (v4). */
  uuid(): string;
  /** `bytes` bytes of cryptographically strong randomness, hex-encoded. */
  secret(bytes: number): string;
}

export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  secret: (bytes) => randomBytes(bytes).toString('hex'),
};
