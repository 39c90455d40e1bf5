import type { KindResult } from './kind-result.ts';
import type { ElementType } from './model.ts';

/** What is read before the whole set of elements is known. */
export interface ReadElement {
  readonly path: string;
  readonly id: string;
  readonly type: ElementType;
  readonly isFresh: boolean;
  readonly common: Record<string, unknown>;
  readonly externalId: string | undefined;
  readonly name: string | null;
  codename: string | null;
  readonly kind: KindResult;
  contentGroup: { id: string } | undefined;
}
