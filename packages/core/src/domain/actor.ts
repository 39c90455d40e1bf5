import type { ApiKeyKind } from './api-key.ts';

/**
 * What a management key's user may change, by their roles (reference §2.12: manage content,
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
  /** An unauthenticated caller of a public API (Delivery without secure access, GraphQL). */
  | { readonly type: 'anonymous'; readonly projectId: string };

export const operator: Actor = Object.freeze({ type: 'operator' });
