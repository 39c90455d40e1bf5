/**
 * The version history's reads and its restore, through the Lectern extension routes under
 * /app/api/v2/projects/{id}/items/{item}/variants/{language}/versions (docs/history.md).
 */
import type { VersionJson } from '@lectern/core';
import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, mapi, request } from '../../../api/client.ts';
import type { VariantJson } from '../../../elements/model.ts';
import { variantPath } from '../../../workflow/workflow-api.ts';

export type { VersionJson };

/** A version as the variant it was, with the version's metadata. */
export type VersionVariantJson = VariantJson & { readonly version: VersionJson };

export interface HistoryTarget {
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
}

/** The keys name the item id, so the item's live changes and workflow actions refetch the list. */
export const historyKey = (t: HistoryTarget) => ['history', t.projectId, t.itemId, t.languageId] as const;

/** The versions, newest first, 50 a page (`x-continuation`). */
export function useVersions(t: HistoryTarget, isEnabled: boolean) {
  return useInfiniteQuery({
    queryKey: historyKey(t),
    enabled: isEnabled,
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await request<{ versions: VersionJson[]; pagination: { continuation_token: string | null } }>(
          mapi(t.projectId, variantPath(t.itemId, t.languageId, '/versions')),
          pageParam ? { headers: { 'x-continuation': pageParam } } : {},
        )
      ).data,
    getNextPageParam: (last) => last.pagination.continuation_token,
  });
}

/** One version (a version never changes once saved). */
export function useVersion(t: HistoryTarget, versionId: string | null) {
  return useQuery({
    queryKey: [...historyKey(t), 'version', versionId],
    enabled: versionId !== null,
    staleTime: Infinity,
    queryFn: () =>
      api<VersionVariantJson>(
        mapi(t.projectId, variantPath(t.itemId, t.languageId, `/versions/${encodeURIComponent(versionId ?? '')}`)),
      ),
  });
}

/** Restores the version as a new version; every cached query of the item is refetched. */
export async function restoreVersion(
  queryClient: QueryClient,
  t: HistoryTarget,
  versionId: string,
): Promise<VersionVariantJson> {
  const restored = await api<VersionVariantJson>(
    mapi(t.projectId, variantPath(t.itemId, t.languageId, `/versions/${encodeURIComponent(versionId)}/restore`)),
    { method: 'POST' },
  );
  await queryClient.invalidateQueries({ predicate: (q) => q.queryKey.some((part) => part === t.itemId) });
  return restored;
}
