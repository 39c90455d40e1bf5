import type { Reference } from '../shared/index.ts';
import type { ModelLookups } from './lookups.ts';
import type { SnippetRecord } from './model.ts';

/*
 * What the element kind readers (element-kinds.ts, rich-text.ts) share: a module of its own so
 * neither imports the other for it.
 */

/** What a kind reader found besides the kind's own properties. */
export interface KindResult {
  readonly props: Record<string, unknown>;
  /** Name to use when none is sent (taxonomy: the group's name). */
  readonly defaultName?: string;
  /** Codename the element always has (snippet element: the snippet's codename). */
  readonly fixedCodename?: string;
  /** Resolved once every element is known (url_slug, custom). */
  readonly dependsOn?: { element: Reference; snippet: Reference | null };
  readonly allowedElements?: Reference[];
  readonly usedSnippet?: SnippetRecord;
}

export interface KindContext {
  readonly lookups: ModelLookups;
  /** Ids stored before this request: references to them are kept without a lookup. */
  readonly trusted: ReadonlySet<string>;
}
