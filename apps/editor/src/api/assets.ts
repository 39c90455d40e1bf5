/**
 * Assets, asset folders and languages as the Management API v2 returns them, read and written
 * through /app/api/v2/projects/{id}/… (the same routes and shapes as the MAPI).
 */
import type { assetJson } from '@lectern/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, mapi, request } from './client.ts';
import { onProjectChange } from './live.ts';
import { useSession } from './session.ts';

/** One asset in its Management API v2 form (the server's own renderer's return type). */
export type AssetJson = ReturnType<typeof assetJson>;

/** A folder of `GET /folders` (the server renders it as a plain record, so its fields are named here). */
export interface FolderJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly external_id?: string;
  readonly folders: readonly FolderJson[];
}

export interface LanguageJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly is_active: boolean;
  readonly is_default: boolean;
}

export const assetsKey = (projectId: string) => ['assets', projectId] as const;
export const foldersKey = (projectId: string) => ['asset-folders', projectId] as const;

export interface Paged {
  readonly pagination: { readonly continuation_token: string | null };
}

/**
 * Every page of a paged MAPI list, following `x-continuation`. `onMore` sees the items so far
 * each time another page follows.
 */
export async function listAll<T, P extends Paged = Paged>(
  path: string,
  pick: (page: P) => readonly T[],
  onMore?: (soFar: readonly T[]) => void,
): Promise<T[]> {
  const out: T[] = [];
  let token: string | null = null;
  do {
    const { data }: { data: P } = await request<P>(path, {
      ...(token ? { headers: { 'x-continuation': token } } : {}),
    });
    out.push(...pick(data));
    token = data.pagination.continuation_token;
    if (token) onMore?.(out);
  } while (token);
  return out;
}

/**
 * The project's assets, every page (the MAPI list has no search: the app filters what it holds).
 * On the first load each page is shown as it arrives; a refetch replaces the list once complete.
 */
export function useAssets(projectId: string, isEnabled = true) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: assetsKey(projectId),
    queryFn: () => {
      const isFirstLoad = queryClient.getQueryData(assetsKey(projectId)) === undefined;
      return listAll(
        mapi(projectId, '/assets'),
        (p: Paged & { assets: AssetJson[] }) => p.assets,
        isFirstLoad ? (soFar) => queryClient.setQueryData(assetsKey(projectId), [...soFar]) : undefined,
      );
    },
    enabled: isEnabled,
  });
}

export function useFolders(projectId: string, isEnabled = true) {
  return useQuery({
    queryKey: foldersKey(projectId),
    queryFn: async () => (await api<{ folders: FolderJson[] }>(mapi(projectId, '/folders'))).folders,
    enabled: isEnabled,
  });
}

export function useLanguages(projectId: string) {
  return useQuery({
    queryKey: ['languages', projectId],
    queryFn: () => listAll(mapi(projectId, '/languages'), (p: Paged & { languages: LanguageJson[] }) => p.languages),
  });
}

/**
 * Whether the person may change assets: their roles give `manage_content` in the project (the
 * session lists it). False while the session loads; the server refuses a change anyway.
 */
export function useMayChangeAssets(projectId: string): boolean {
  const session = useSession();
  return session.data?.projects.find((p) => p.id === projectId)?.permissions.includes('manage_content') ?? false;
}

/**
 * Changes made elsewhere show up: an asset or folder change on the project's change stream (the
 * app frame keeps it open) refetches the assets or the folders; a reset refetches both.
 */
export function useLiveAssets(projectId: string): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onProjectChange((change) => {
        if (!change || change.object_kind === 'asset')
          void queryClient.invalidateQueries({ queryKey: assetsKey(projectId) });
        if (!change || change.object_kind === 'asset_folder')
          void queryClient.invalidateQueries({ queryKey: foldersKey(projectId) });
      }),
    [projectId, queryClient],
  );
}

/** Whether the asset is an image the assets origin can transform (thumbnails). */
export function isImage(asset: Pick<AssetJson, 'type'>): boolean {
  return asset.type.startsWith('image/');
}

/**
 * A thumbnail: the asset's URL (on the assets origin, not the app's) with the image
 * transformation query, cropped to the box.
 */
export function thumbnailUrl(asset: Pick<AssetJson, 'url'>, width: number, height: number): string {
  const separator = asset.url.includes('?') ? '&' : '?';
  return `${asset.url}${separator}w=${width}&h=${height}&fit=crop`;
}

export interface AssetFilter {
  readonly search: string;
  readonly type: 'all' | 'images' | 'other';
  /** null: every folder; '' : the root only; else a folder id (its subfolders only when `isDeep`). */
  readonly folderId: string | null;
}

/** The assets matching a search on title and file name, a type and a folder. */
export function filterAssets(assets: readonly AssetJson[], filter: AssetFilter): AssetJson[] {
  const needle = filter.search.trim().toLocaleLowerCase();
  return assets.filter((a) => {
    if (filter.type === 'images' && !isImage(a)) return false;
    if (filter.type === 'other' && isImage(a)) return false;
    if (filter.folderId !== null && (a.folder?.id ?? '') !== filter.folderId) return false;
    if (!needle) return true;
    return (a.title ?? '').toLocaleLowerCase().includes(needle) || a.file_name.toLocaleLowerCase().includes(needle);
  });
}
