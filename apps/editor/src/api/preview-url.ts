/*
 * Preview URLs as Kontent.ai expands them (Management API "preview configuration"): each content
 * type has URL patterns, one for all spaces (`space: null`) and any number for single spaces; a
 * space has a web domain. A pattern's macros are replaced with the item's values:
 *
 *   {Space}      the domain of the space the URL is for (no URL when the space has none)
 *   {URLslug}    the item's URL slug element (no URL when the type has none or it is empty)
 *   {Lang}       the language codename ({LanguageCodename}, the web app's older name, too)
 *   {Codename}   the item's codename
 *   {ItemId}     the item's id
 *   {Collection} the codename of the item's collection
 *
 * A pattern for a space wins over the pattern for all spaces. The item's spaces are the spaces
 * whose collections include the item's collection; with none, only the all-spaces pattern
 * applies. Values are URL-encoded; the pattern itself is kept as written.
 */

export interface PreviewConfiguration {
  readonly space_domains: readonly { space: { id: string }; domain: string }[];
  readonly preview_url_patterns: readonly {
    content_type: { id: string };
    url_patterns: readonly { space: { id: string } | null; url_pattern: string }[];
  }[];
}

export interface PreviewSpace {
  readonly id: string;
  readonly name: string;
  readonly collections: readonly { id: string }[];
}

/** What the expansion needs to know about the item in one language. */
export interface PreviewItem {
  readonly id: string;
  readonly codename: string;
  readonly typeId: string;
  /** The collection's codename ({Collection}) and id (which spaces hold the item). */
  readonly collection: { id: string; codename: string } | null;
  readonly languageCodename: string;
  /** The URL slug element's value; null when the type has no URL slug element. */
  readonly urlSlug: string | null;
}

export type PreviewUrl =
  | { readonly space: PreviewSpace | null; readonly url: string }
  | { readonly space: PreviewSpace | null; readonly url: null; readonly problem: string };

const macro = /\{(Space|URLslug|Lang|LanguageCodename|Codename|ItemId|Collection)\}/g;

/** One pattern with the item's values; a problem instead when a macro has no value. */
export function expandPattern(pattern: string, item: PreviewItem, domain: string | null): string | { problem: string } {
  let problem: string | null = null;
  const url = pattern.replace(macro, (_, name: string) => {
    const value = macroValue(name, item, domain);
    if (value === null || value === '') {
      problem ??= missing[name] ?? `The macro {${name}} has no value.`;
      return '';
    }
    return name === 'Space' ? value : encodeURIComponent(value);
  });
  return problem === null ? url : { problem };
}

const missing: Record<string, string> = {
  Space: 'The space has no domain in the preview configuration.',
  URLslug: 'The item has no URL slug to preview.',
  Collection: 'The item is in no collection.',
};

function macroValue(name: string, item: PreviewItem, domain: string | null): string | null {
  switch (name) {
    case 'Space':
      return domain;
    case 'URLslug':
      return item.urlSlug;
    case 'Lang':
    case 'LanguageCodename':
      return item.languageCodename;
    case 'Codename':
      return item.codename;
    case 'ItemId':
      return item.id;
    case 'Collection':
      return item.collection?.codename ?? null;
    default:
      return null;
  }
}

/**
 * The item's preview URLs: one per space that holds the item (its own pattern, else the
 * all-spaces one), or one for no space when no space holds it. Empty when the type has no
 * pattern that applies.
 */
export function previewUrlsOf(
  config: PreviewConfiguration,
  spaces: readonly PreviewSpace[],
  item: PreviewItem,
): PreviewUrl[] {
  const patterns = config.preview_url_patterns.find((p) => p.content_type.id === item.typeId)?.url_patterns ?? [];
  if (patterns.length === 0) return [];
  const general = patterns.find((p) => p.space === null) ?? null;
  const holding = item.collection ? spaces.filter((s) => s.collections.some((c) => c.id === item.collection?.id)) : [];
  const targets: (PreviewSpace | null)[] = holding.length > 0 ? holding : [null];
  const out: PreviewUrl[] = [];
  for (const space of targets) {
    const pattern = (space && patterns.find((p) => p.space?.id === space.id)) ?? general;
    if (!pattern) continue;
    const domain = space ? (config.space_domains.find((d) => d.space.id === space.id)?.domain ?? null) : null;
    const expanded = expandPattern(pattern.url_pattern, item, domain);
    out.push(typeof expanded === 'string' ? { space, url: expanded } : { space, url: null, problem: expanded.problem });
  }
  return out;
}

/** The origin of an expanded preview URL (for postMessage checks); null when it is not http(s). */
export function previewOrigin(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}
