import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { collectionJson, contentTypeJson, languageJson, workflowJson } from '@lectern/core';
import { mapi, request } from './client.ts';

/*
 * A project's model as the Management API v2 returns it (types from the server's own renderers),
 * one cached query each: languages, content types, collections, workflows.
 */

export type Language = ReturnType<typeof languageJson>;
export type ContentType = ReturnType<typeof contentTypeJson>;
export type Collection = ReturnType<typeof collectionJson>;
export type Workflow = ReturnType<typeof workflowJson>;

/** Every page of a paged MAPI list (`x-continuation`), concatenated. */
export async function listAll<T>(projectId: string, path: string, key: string): Promise<T[]> {
  const all: T[] = [];
  let continuation: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof request<Record<string, unknown>>>> = await request(
      mapi(projectId, path),
      continuation ? { headers: { 'x-continuation': continuation } } : {},
    );
    all.push(...((page.data[key] as T[] | undefined) ?? []));
    const pagination = page.data['pagination'] as { continuation_token?: string | null } | undefined;
    continuation = pagination?.continuation_token ?? null;
  } while (continuation);
  return all;
}

/** Model data changes rarely: kept 5 minutes, refreshed on live change events like the rest. */
const modelStaleTime = 5 * 60_000;

/** The languages query, for `useQuery` and for `queryClient.ensureQueryData` outside components. */
export function languagesQuery(projectId: string) {
  return {
    queryKey: ['model', projectId, 'languages'],
    queryFn: () => listAll<Language>(projectId, '/languages', 'languages'),
    staleTime: modelStaleTime,
  };
}

export function useLanguages(projectId: string): UseQueryResult<Language[]> {
  return useQuery(languagesQuery(projectId));
}

export function useContentTypes(projectId: string): UseQueryResult<ContentType[]> {
  return useQuery({
    queryKey: ['model', projectId, 'types'],
    queryFn: () => listAll<ContentType>(projectId, '/types', 'types'),
    staleTime: modelStaleTime,
  });
}

export function useCollections(projectId: string): UseQueryResult<Collection[]> {
  return useQuery({
    queryKey: ['model', projectId, 'collections'],
    queryFn: async () =>
      (await request<{ collections: Collection[] }>(mapi(projectId, '/collections'))).data.collections,
    staleTime: modelStaleTime,
  });
}

export function useWorkflows(projectId: string): UseQueryResult<Workflow[]> {
  return useQuery({
    queryKey: ['model', projectId, 'workflows'],
    queryFn: async () => (await request<Workflow[]>(mapi(projectId, '/workflows'))).data,
    staleTime: modelStaleTime,
  });
}

/** The language whose codename the URL names, and the default language. */
export function languageOf(languages: readonly Language[] | undefined, codename: string) {
  return {
    language: languages?.find((l) => l.codename === codename) ?? null,
    defaultLanguage: languages?.find((l) => l.is_default) ?? null,
  };
}
