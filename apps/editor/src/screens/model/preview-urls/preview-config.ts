import type { PreviewConfiguration } from '../settings-kit/model-data.ts';

/*
 * The preview configuration as form values, and back: a domain per space, and a URL pattern per
 * content type for all spaces (key `*`) or one space (its id). Empty fields are left out of the
 * PUT body. `pathOf` names where each field's value lands in the body, so a refusal at
 * `preview_url_patterns[0].url_patterns[1].url_pattern` is shown at the field it came from.
 */

export const allSpaces = '*';

export interface PreviewForm {
  /** Space id → domain. */
  readonly domains: Readonly<Record<string, string>>;
  /** Content type id → (space id or `*`) → URL pattern. */
  readonly patterns: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export function formOf(config: PreviewConfiguration): PreviewForm {
  const patterns: Record<string, Record<string, string>> = {};
  for (const p of config.preview_url_patterns) {
    const byType = (patterns[p.content_type.id] ??= {});
    for (const u of p.url_patterns) byType[u.space?.id ?? allSpaces] = u.url_pattern;
  }
  return {
    domains: Object.fromEntries(config.space_domains.map((d) => [d.space.id, d.domain])),
    patterns,
  };
}

/** The PUT body, and the field key (`domain:{space}` / `pattern:{type}:{space}`) of each body path. */
export function bodyOf(form: PreviewForm): { body: PreviewConfiguration; pathOf: Map<string, string> } {
  const pathOf = new Map<string, string>();
  const space_domains: PreviewConfiguration['space_domains'] = [];
  for (const [space, domain] of Object.entries(form.domains)) {
    if (!domain.trim()) continue;
    pathOf.set(`space_domains[${space_domains.length}]`, `domain:${space}`);
    space_domains.push({ space: { id: space }, domain: domain.trim() });
  }
  const preview_url_patterns: PreviewConfiguration['preview_url_patterns'] = [];
  for (const [type, bySpace] of Object.entries(form.patterns)) {
    const url_patterns: PreviewConfiguration['preview_url_patterns'][number]['url_patterns'] = [];
    for (const [space, pattern] of Object.entries(bySpace)) {
      if (!pattern.trim()) continue;
      const path = `preview_url_patterns[${preview_url_patterns.length}].url_patterns[${url_patterns.length}]`;
      pathOf.set(path, `pattern:${type}:${space}`);
      url_patterns.push({ space: space === allSpaces ? null : { id: space }, url_pattern: pattern.trim() });
    }
    if (url_patterns.length) preview_url_patterns.push({ content_type: { id: type }, url_patterns });
  }
  return { body: { space_domains, preview_url_patterns }, pathOf };
}

/** The field key a refusal's path concerns (the longest body path it starts with), if any. */
export function fieldOfPath(pathOf: ReadonlyMap<string, string>, path: string | undefined): string | null {
  if (!path) return null;
  let best: string | null = null;
  for (const prefix of pathOf.keys()) {
    if (
      (path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`)) &&
      (!best || prefix.length > best.length)
    )
      best = prefix;
  }
  return best === null ? null : (pathOf.get(best) ?? null);
}
