/**
 * What the rich text editor reads from the Management API v2 (under /app/api): content items
 * (names of linked items, the item picker), content types (component types) and assets
 * (images placed in the text). Shapes are the server's own renderers' return types.
 */
import type { contentTypeJson, itemJson } from '@lectern/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { AssetJson } from '../api/assets.ts';
import { api, mapi } from '../api/client.ts';

export type ItemJson = ReturnType<typeof itemJson>;
export type TypeJson = ReturnType<typeof contentTypeJson>;

/** One item, by id (a linked item's card, an item link's name). */
export function useItem(projectId: string, itemId: string): UseQueryResult<ItemJson> {
  return useQuery({
    queryKey: ['item', projectId, itemId],
    queryFn: () => api<ItemJson>(mapi(projectId, `/items/${encodeURIComponent(itemId)}`)),
    enabled: itemId !== '',
    staleTime: 60_000,
  });
}

/** One asset, by id (an image placed in the text). */
export function useAsset(projectId: string, assetId: string): UseQueryResult<AssetJson> {
  return useQuery({
    queryKey: ['asset', projectId, assetId],
    queryFn: () => api<AssetJson>(mapi(projectId, `/assets/${encodeURIComponent(assetId)}`)),
    enabled: assetId !== '',
    staleTime: 60_000,
  });
}

/** The project's content types (first page of 50 is plenty for choosing a component's type, followed to the end). */
export function useTypes(projectId: string, isEnabled = true): UseQueryResult<TypeJson[]> {
  return useQuery({
    queryKey: ['types', projectId],
    queryFn: async () => {
      const out: TypeJson[] = [];
      let token: string | null = null;
      do {
        const headers: Record<string, string> = token === null ? {} : { 'x-continuation': token };
        const page: { types: TypeJson[]; pagination: { continuation_token: string | null } } = await api(
          mapi(projectId, '/types'),
          { headers },
        );
        out.push(...page.types);
        token = page.pagination.continuation_token;
      } while (token !== null);
      return out;
    },
    enabled: isEnabled,
    staleTime: 60_000,
  });
}

/**
 * The item picker's search: `POST /items-with-variant/filter` (name search, allowed types; the
 * first page of 50) and the items' names through `POST /items-with-variant/bulk-get`.
 */
export function useItemSearch(options: {
  readonly projectId: string;
  readonly search: string;
  readonly typeIds: readonly string[] | null;
  readonly isEnabled: boolean;
}): UseQueryResult<ItemJson[]> {
  const { projectId, search, typeIds, isEnabled } = options;
  return useQuery({
    queryKey: ['item-search', projectId, search, typeIds],
    queryFn: async () => {
      const filters: Record<string, unknown> = {};
      if (search.trim() !== '') filters['search_phrase'] = search.trim();
      if (typeIds !== null) filters['content_types'] = typeIds.map((id) => ({ id }));
      const found = await api<{ variants: { item: { id: string }; language: { id: string } }[] }>(
        mapi(projectId, '/items-with-variant/filter'),
        { method: 'POST', body: { filters, order: { by: 'name', direction: 'asc' } } },
      );
      if (found.variants.length === 0) return [];
      const named = await api<{ data: { item: ItemJson }[] }>(mapi(projectId, '/items-with-variant/bulk-get'), {
        method: 'POST',
        body: { variants: found.variants.map((v) => ({ item: { id: v.item.id }, language: { id: v.language.id } })) },
      });
      return named.data.map((entry) => entry.item);
    },
    enabled: isEnabled,
    staleTime: 10_000,
  });
}
