import { useQuery } from '@tanstack/react-query';
import { api, mapi } from '../api/client.ts';
import type { ContentTypeJson, SnippetJson, TypeElement } from './model.ts';

/**
 * Reads of the Management API v2 the form needs, one cache key per object so that screens share
 * them (TanStack Query dedupes and keeps them 30 s fresh).
 */

export interface TaxonomyTerm {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly terms: readonly TaxonomyTerm[];
}

export interface TaxonomyJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly terms: readonly TaxonomyTerm[];
}

export interface AssetJson {
  readonly id: string;
  readonly codename?: string;
  readonly file_name: string;
  readonly title: string | null;
  readonly size: number;
  readonly type: string;
  readonly url: string;
  readonly image_width: number | null;
  readonly image_height: number | null;
}

export interface ItemJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly type: { readonly id: string };
  readonly collection?: { readonly id: string };
  readonly last_modified?: string;
}

export function useTaxonomy(projectId: string, groupId: string | undefined) {
  return useQuery({
    queryKey: ['mapi', projectId, 'taxonomy', groupId],
    queryFn: () => api<TaxonomyJson>(mapi(projectId, `/taxonomies/${groupId}`)),
    enabled: Boolean(groupId),
  });
}

export function useAsset(projectId: string, assetId: string) {
  return useQuery({
    queryKey: ['mapi', projectId, 'asset', assetId],
    queryFn: () => api<AssetJson>(mapi(projectId, `/assets/${assetId}`)),
  });
}

export function useItem(projectId: string, itemId: string | undefined) {
  return useQuery({
    queryKey: ['mapi', projectId, 'item', itemId],
    queryFn: () => api<ItemJson>(mapi(projectId, `/items/${itemId}`)),
    enabled: Boolean(itemId),
  });
}

/** Every content type of the project (pages followed through `x-continuation`). */
export function useTypes(projectId: string) {
  return useQuery({
    queryKey: ['mapi', projectId, 'types'],
    queryFn: async () => {
      const out: ContentTypeJson[] = [];
      let token: string | null = null;
      do {
        const page: { types: ContentTypeJson[]; pagination: { continuation_token: string | null } } = await api(
          mapi(projectId, '/types'),
          token ? { headers: { 'x-continuation': token } } : {},
        );
        out.push(...page.types);
        token = page.pagination.continuation_token;
      } while (token);
      return out;
    },
  });
}

/**
 * A content type with its snippets' elements in place of each snippet element, so the form lists
 * every element in the order the type shows them. `snippetOf` names the snippet an element came
 * from (for the heading the form shows above a snippet's elements).
 */
export interface ExpandedType {
  readonly type: ContentTypeJson;
  readonly elements: readonly TypeElement[];
  readonly snippets: ReadonlyMap<string, SnippetJson>;
}

export async function loadExpandedType(projectId: string, typeId: string): Promise<ExpandedType> {
  const type = await api<ContentTypeJson>(mapi(projectId, `/types/${typeId}`));
  const snippetIds = type.elements.filter((e) => e.type === 'snippet').map((e) => (e['snippet'] as { id: string }).id);
  const snippets = new Map<string, SnippetJson>();
  await Promise.all(
    [...new Set(snippetIds)].map(async (id) => {
      snippets.set(id, await api<SnippetJson>(mapi(projectId, `/snippets/${id}`)));
    }),
  );
  return { type, elements: expandSnippets(type.elements, snippets), snippets };
}

/** The type's elements with each snippet element replaced by its snippet's elements (kept in place). */
export function expandSnippets(
  elements: readonly TypeElement[],
  snippets: ReadonlyMap<string, SnippetJson>,
): TypeElement[] {
  return elements.flatMap((e) => {
    if (e.type !== 'snippet') return [e];
    const snippet = snippets.get((e['snippet'] as { id: string }).id);
    const group = e.content_group;
    return (snippet?.elements ?? []).map((s) => ({
      ...s,
      ...(group ? { content_group: group } : {}),
      snippet_of: { id: e.id, name: snippet?.name ?? e.codename },
    }));
  });
}

export function useExpandedType(projectId: string, typeId: string | undefined) {
  return useQuery({
    queryKey: ['mapi', projectId, 'type-expanded', typeId],
    queryFn: () => loadExpandedType(projectId, typeId ?? ''),
    enabled: Boolean(typeId),
  });
}
