/*
 * The inventory query as the store runs it: the body of `POST /items-with-variant/filter` resolved
 * into ids and into the few rules of the content model it depends on (what makes a variant
 * complete, where a taxonomy group's terms are stored), so the store can answer it with one
 * indexed query whatever the project's size.
 */

export const publishingStates = ['published', 'unpublished', 'not_published_yet'] as const;
export type PublishingState = (typeof publishingStates)[number];

/** A publish-time check of one element (see workflow/required.ts `checkPublishable`). */
export type ElementCheck =
  | {
      readonly elementId: string;
      /** The value must not be empty; rich text holding only an empty paragraph is empty. */
      readonly kind: 'required';
      readonly isRichText: boolean;
    }
  | {
      readonly elementId: string;
      /** An array value's length: above `max`, or above 0 and below `min`, fails. */
      readonly kind: 'count';
      readonly min: number | null;
      readonly max: number | null;
    };

/** The checks of one content type; a variant of a type with none is always complete. */
export interface CompletionRule {
  readonly typeId: string;
  readonly checks: readonly ElementCheck[];
}

export interface VariantQuery {
  readonly languageId: string;
  /**
   * As typed (trimmed); matched, ignoring case, as a substring of the item's name or of the
   * variant's text values. The store folds case on both sides with one function, so the two agree
   * in any locale.
   */
  readonly searchPhrase: string | null;
  readonly typeIds: readonly string[] | null;
  readonly collectionIds: readonly string[] | null;
  /** The variant's latest version holds a component of any of these types (rich text, any depth). */
  readonly componentTypeIds: readonly string[] | null;
  readonly contributorIds: readonly string[] | null;
  readonly hasNoContributors: boolean;
  /**
   * Completion statuses wanted, or null for "variants only". `notTranslated` also lists items
   * without a variant in the language; `ready` and `unfinished` are decided by `rules`.
   */
  readonly completion: {
    readonly isNotTranslated: boolean;
    readonly isAllDone: boolean;
    readonly isReady: boolean;
    readonly isUnfinished: boolean;
    readonly rules: readonly CompletionRule[];
    /** Steps that count as done (published, archived). */
    readonly doneStepIds: readonly string[];
  } | null;
  readonly steps: readonly { readonly workflowId: string; readonly stepIds: readonly string[] }[] | null;
  /** Each group: any of the terms in any of the group's elements, or (when asked) none at all. */
  readonly taxonomies:
    | readonly {
        readonly elementIds: readonly string[];
        readonly termIds: readonly string[];
        readonly isUncategorizedIncluded: boolean;
      }[]
    | null;
  readonly publishing: readonly PublishingState[] | null;
  readonly archivedStepId: string;
  /** `position`: items in creation order. Ties of the other orders go by creation order too. */
  readonly order: {
    readonly by: 'position' | 'name' | 'last_modified' | 'due_date';
    readonly direction: 'asc' | 'desc';
  };
}

/** A place in the query's order: the sort value of the last row (absent for `position`) and its tie-breaker. */
export type VariantQueryKey = readonly (string | number)[];

export interface VariantQueryPage {
  readonly itemIds: string[];
  readonly next: VariantQueryKey | null;
}
