import type { ApiKeyKind } from './api-key.ts';

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
    }
  /** An unauthenticated caller of a public API (Delivery without secure access, GraphQL). */
  | { readonly type: 'anonymous'; readonly projectId: string };

export const operator: Actor = Object.freeze({ type: 'operator' });
