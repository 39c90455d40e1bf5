import type { ApiKeyKind } from './api-key.ts';

/**
 * What a management key's user (or a signed-in person) may change, by their roles (reference §2.12: manage content,
 * manage content model, manage environment settings). Reading needs none.
 */
export type Permission = 'manage_content' | 'manage_model' | 'manage_environment';

/** Who is calling. Every operation takes one; there is no implicit superuser. */
export type Actor =
  /** The operator, through the CLI or the admin API. */
  | { readonly type: 'operator' }
  /** A caller that presented a valid API key. */
  | {
      readonly type: 'api_key';
      readonly keyId: string;
      readonly projectId: string;
      readonly keyKind: ApiKeyKind;
      readonly userId: string | null;
      /**
       * What the key's user may change in the key's project, from their roles when the key was
       * authenticated (none for keys of the other APIs). Every operation that changes content, the
       * model or environment settings checks this (`assertMayChange`).
       */
      readonly permissions: readonly Permission[];
    }
  /**
   * A project's person signed in to the editor with their password (a session). Held to the same
   * rule as a management key's user: `permissions` are resolved from their current roles in
   * `projectId` on every request, so a role change or deactivation applies at once.
   */
  | {
      readonly type: 'person';
      readonly userId: string;
      readonly projectId: string;
      readonly permissions: readonly Permission[];
      /** The session's public id (a digest of its secret), for logs and sign-out. */
      readonly sessionId: string;
    }
  /** An unauthenticated caller of a public API (Delivery without secure access, GraphQL). */
  | { readonly type: 'anonymous'; readonly projectId: string };

export const operator: Actor = Object.freeze({ type: 'operator' });

/** The user an actor acts as, when it acts as one (a person, or a management key issued to a user). */
export function userIdOf(actor: Actor): string | null {
  if (actor.type === 'person') return actor.userId;
  if (actor.type === 'api_key') return actor.userId;
  return null;
}
