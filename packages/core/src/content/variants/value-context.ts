import type { ElementBody } from '../../model/content-types/model.ts';
import { Problems } from '../../model/shared/index.ts';
import type { ContentLookups } from './lookups.ts';
import type { StoredElementValue } from './variant-record.ts';

/** Problems that also count, so a reader can tell whether its own checks added any. */
export class CountingProblems extends Problems {
  count = 0;

  override add(path: string | undefined, message: string): void {
    this.count += 1;
    super.add(path, message);
  }
}

/** A referenced item to verify once every value is read (one batched lookup). */
export interface ItemCheck {
  readonly id: string;
  readonly path: string;
  /** True for references by id: the item must exist. External ids may name items not created yet. */
  readonly isRequiredToExist: boolean;
  /** Ids of the allowed content types; empty means any. */
  readonly allowedTypes: readonly string[];
}

/** What reading element values needs, shared by a variant and its components. */
export interface ValueContext {
  readonly lookups: ContentLookups;
  readonly problems: CountingProblems;
  readonly version: 'v1' | 'v2';
  /** Component nesting level of the values being read: 0 for a variant's own elements. */
  readonly depth: number;
  readonly itemChecks: ItemCheck[];
  /**
   * Ids the variant already references (stored values, including forward references made by
   * external id): sending them back by id is accepted, so a GET body can be PUT back as-is.
   */
  readonly storedIds: ReadonlySet<string>;
  /** Asset ids referenced by id (they must exist when asset lookups are available). */
  readonly assetChecks: { id: string; path: string }[];
}

/**
 * Reads the `elements` of a variant or component request (`readElements` in elements-reader.ts).
 * Rich text values receive it to read their components' elements, which nest.
 */
export type ElementsReader = (options: {
  defs: readonly ElementBody[];
  raw: unknown;
  path: string;
  ctx: ValueContext;
}) => Promise<Map<string, StoredElementValue> | null>;

/** Components nest at most six levels (SPEC 2.4 rule 8, SPEC 8). */
export const maxComponentDepth = 6;

/** Text values hold at most 100,000 characters, custom element values 200,000 (reference §3.1). */
export const textMax = 100_000;
export const customMax = 200_000;
