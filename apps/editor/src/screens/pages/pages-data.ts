import { useQuery } from '@tanstack/react-query';
import { api, mapi } from '../../api/client.ts';
import { useCollections } from '../../api/project-model.ts';
import { previewOrigin, previewUrlsOf, type PreviewConfiguration, type PreviewUrl } from '../../api/preview-url.ts';
import type { ElementValue, TypeElement, VariantJson } from '../../elements/model.ts';
import { useExpandedType, useItem, type ItemJson } from '../../elements/queries.ts';
import { useVariants } from '../item/queries.ts';

/* The page view's reads: spaces, the preview configuration, and one page (item, variant, type). */

export interface SpaceJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly web_spotlight_root_item: { id: string } | null;
  readonly collections: readonly { id: string }[];
}

export function useSpaces(projectId: string) {
  return useQuery({
    queryKey: ['mapi', projectId, 'spaces'],
    queryFn: () => api<SpaceJson[]>(mapi(projectId, '/spaces')),
    staleTime: 60_000,
  });
}

export function usePreviewConfiguration(projectId: string) {
  return useQuery({
    queryKey: ['mapi', projectId, 'preview-configuration'],
    queryFn: () => api<PreviewConfiguration>(mapi(projectId, '/preview-configuration')),
    staleTime: 60_000,
  });
}

/** The value of the first element of `kind` in a variant (null when the type has none). */
function valueOfKind(defs: readonly TypeElement[], values: readonly ElementValue[], kind: string): unknown {
  const def = defs.find((d) => d.type === kind);
  if (!def) return null;
  return values.find((v) => v.element.id === def.id)?.value ?? null;
}

/** A page: the item, its variant in the language, its type, its subpages and its preview URLs. */
export interface PageData {
  readonly item: ItemJson;
  readonly variant: VariantJson | null;
  readonly defs: readonly TypeElement[];
  readonly subpageIds: readonly string[];
  readonly previewUrls: readonly PreviewUrl[];
}

export function usePage(
  projectId: string,
  itemId: string,
  language: { id: string; codename: string } | null,
): { data: PageData | null; isError: boolean; error: Error | null } {
  const item = useItem(projectId, itemId);
  const variants = useVariants(projectId, itemId);
  const type = useExpandedType(projectId, item.data?.type.id);
  const spaces = useSpaces(projectId);
  const config = usePreviewConfiguration(projectId);
  const collections = useCollections(projectId);
  const failed = [item, variants, type, spaces, config].find((q) => q.isError);
  if (failed) return { data: null, isError: true, error: failed.error };
  if (!item.data || !variants.data || !type.data || !spaces.data || !config.data || !language)
    return { data: null, isError: false, error: null };
  const variant = variants.data.find((v) => v.language.id === language.id) ?? null;
  const defs = type.data.elements;
  const values = variant?.elements ?? [];
  const sub = valueOfKind(defs, values, 'subpages');
  const subpageIds = Array.isArray(sub) ? (sub as { id: string }[]).map((r) => r.id) : [];
  const slug = valueOfKind(defs, values, 'url_slug');
  const collectionId = item.data.collection?.id;
  const collection = (collections.data ?? []).find((c) => c.id === collectionId);
  const previewUrls = previewUrlsOf(config.data, spaces.data, {
    id: item.data.id,
    codename: item.data.codename,
    typeId: item.data.type.id,
    collection: collection ? { id: collection.id, codename: collection.codename } : null,
    languageCodename: language.codename,
    urlSlug: defs.some((d) => d.type === 'url_slug') ? (typeof slug === 'string' ? slug : '') : null,
  });
  return { data: { item: item.data, variant, defs, subpageIds, previewUrls }, isError: false, error: null };
}

/**
 * Every origin a preview URL of the project can have: what the site's messages are checked
 * against. The space domains (https and http) and the fixed origins written in patterns.
 */
export function previewOrigins(config: PreviewConfiguration | undefined, current: readonly PreviewUrl[]): string[] {
  const out = new Set<string>();
  for (const u of current) {
    const o = u.url ? previewOrigin(u.url) : null;
    if (o) out.add(o);
  }
  for (const d of config?.space_domains ?? []) {
    for (const scheme of ['https', 'http']) {
      const o = previewOrigin(`${scheme}://${d.domain}`);
      if (o) out.add(o);
    }
  }
  for (const p of config?.preview_url_patterns ?? [])
    for (const u of p.url_patterns) {
      const o = u.url_pattern.includes('{Space}') ? null : previewOrigin(u.url_pattern.replace(/\{\w+\}/g, 'x'));
      if (o) out.add(o);
    }
  return [...out];
}
