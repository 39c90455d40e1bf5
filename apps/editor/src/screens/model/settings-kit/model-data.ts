import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { PreviewConfiguration, RoleJson, spaceJson, taxonomyJson } from '@lectern/core';
import { mapi, request } from '../../../api/client.ts';
import { listAll } from '../../../api/project-model.ts';

/*
 * The parts of a project's model the settings screens read beside `api/project-model.ts`
 * (languages, types, collections, workflows): taxonomy groups, spaces, roles and the preview
 * configuration, each one cached query under ['model', projectId, …], so the change stream's
 * model invalidation refreshes them too. Wire types come from the server's renderers.
 */

export type Taxonomy = ReturnType<typeof taxonomyJson>;
export type TaxonomyTerm = Taxonomy['terms'][number];
export type Space = ReturnType<typeof spaceJson>;
export type Role = RoleJson;
export type { PreviewConfiguration };

const staleTime = 5 * 60_000;

export function useTaxonomies(projectId: string): UseQueryResult<Taxonomy[]> {
  return useQuery({
    queryKey: ['model', projectId, 'taxonomies'],
    queryFn: () => listAll<Taxonomy>(projectId, '/taxonomies', 'taxonomies'),
    staleTime,
  });
}

export function useSpaces(projectId: string): UseQueryResult<Space[]> {
  return useQuery({
    queryKey: ['model', projectId, 'spaces'],
    queryFn: async () => (await request<Space[]>(mapi(projectId, '/spaces'))).data,
    staleTime,
  });
}

export function useRoles(projectId: string): UseQueryResult<Role[]> {
  return useQuery({
    queryKey: ['model', projectId, 'roles'],
    queryFn: async () => (await request<{ roles: Role[] }>(mapi(projectId, '/roles'))).data.roles,
    staleTime,
  });
}

export function usePreviewConfiguration(projectId: string): UseQueryResult<PreviewConfiguration> {
  return useQuery({
    queryKey: ['model', projectId, 'preview-configuration'],
    queryFn: async () => (await request<PreviewConfiguration>(mapi(projectId, '/preview-configuration'))).data,
    staleTime,
  });
}
