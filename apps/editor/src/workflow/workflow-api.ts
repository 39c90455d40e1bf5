/**
 * The reads and writes of the workflow panel, all through the Management API v2 routes under
 * /app/api/v2/projects/{id}/… (variant, its published version, workflows, roles, the item), and
 * `GET /app/api/session` for the person's roles.
 */
import type { AppUserJson, RoleJson } from '@lectern/core';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ApiError, api, mapi } from '../api/client.ts';
import { onProjectChange } from '../api/live.ts';
import { useSession } from '../api/session.ts';
import type { Person, VariantState, WorkflowJson } from './workflow-rules.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/items/{item}/variants/{language}{suffix}`; a language that is not an id is a codename. */
export function variantPath(itemId: string, languageId: string, suffix = ''): string {
  const language = uuid.test(languageId) ? languageId : `codename/${encodeURIComponent(languageId)}`;
  return `/items/${encodeURIComponent(itemId)}/variants/${language}${suffix}`;
}

export const variantKey = (projectId: string, itemId: string, languageId: string) =>
  ['variant', projectId, itemId, languageId] as const;

export function useVariant(projectId: string, itemId: string, languageId: string) {
  return useQuery({
    queryKey: variantKey(projectId, itemId, languageId),
    queryFn: () => api<VariantState>(mapi(projectId, variantPath(itemId, languageId))),
  });
}

/** Whether a published version exists (GET …/published answers 404 when none). */
export function useIsPublished(projectId: string, itemId: string, languageId: string) {
  return useQuery({
    queryKey: [...variantKey(projectId, itemId, languageId), 'published'],
    queryFn: async () => {
      try {
        await api(mapi(projectId, variantPath(itemId, languageId, '/published')));
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return false;
        throw error;
      }
    },
  });
}

export function useWorkflows(projectId: string) {
  return useQuery({
    queryKey: ['workflows', projectId],
    queryFn: () => api<WorkflowJson[]>(mapi(projectId, '/workflows')),
  });
}

export function useItem(projectId: string, itemId: string) {
  return useQuery({
    queryKey: ['item', projectId, itemId],
    queryFn: () =>
      api<{ id: string; name: string; type: { id: string }; collection: { id: string } }>(
        mapi(projectId, `/items/${encodeURIComponent(itemId)}`),
      ),
  });
}

/**
 * The person's role ids in the environment: the session names their roles (by name), the MAPI's
 * `GET /roles` gives the ids the workflow's `role_ids` hold.
 */
export function usePersonRoles(projectId: string): { data: (Person & { userId: string }) | undefined } {
  const session = useSession();
  const roles = useQuery({
    queryKey: ['roles', projectId],
    queryFn: () => api<{ roles: RoleJson[] }>(mapi(projectId, '/roles')),
    staleTime: Infinity,
  });
  return useMemo(() => {
    if (!session.data || !roles.data) return { data: undefined };
    const mine = new Set(session.data.projects.find((p) => p.id === projectId)?.roles ?? []);
    const held = roles.data.roles.filter(
      (r) => mine.has(r.id) || mine.has(r.name) || (r.codename !== undefined && mine.has(r.codename)),
    );
    return {
      data: {
        userId: session.data.user.id,
        roleIds: new Set(held.map((r) => r.id)),
        isProjectManager: held.some((r) => r.codename === 'project-manager'),
      },
    };
  }, [session.data, roles.data, projectId]);
}

export type UserJson = AppUserJson;

/**
 * The environment's active users, for "Contributors": `GET /app/api/projects/{id}/users` (the
 * Management API has no public list). Without it (an older server) the panel shows contributors
 * by id and keeps them unchanged.
 */
export function useUsers(projectId: string) {
  return useQuery({
    queryKey: ['users', projectId],
    retry: false,
    staleTime: 60_000,
    queryFn: async () =>
      (await api<{ users: AppUserJson[] }>(`/projects/${encodeURIComponent(projectId)}/users`)).users,
  });
}

export function userLabel(user: UserJson | undefined, id: string): string {
  return user?.email ?? id;
}

/** Every cached query that names the item (its variant, published version, the item itself…). */
function invalidateItem(queryClient: QueryClient, itemId: string): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (q) => q.queryKey.some((part) => part === itemId) });
}

/** A change of the item or its variants made elsewhere (another person, the API) refetches the panel. */
export function useLiveItem(itemId: string): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onProjectChange((change) => {
        if (!change || ((change.object_kind === 'variant' || change.object_kind === 'item') && change.id === itemId))
          void invalidateItem(queryClient, itemId);
      }),
    [itemId, queryClient],
  );
}

/** `PUT …/{action}` with the body; then every cached query of this item is refetched. */
export async function runVariantAction(
  queryClient: QueryClient,
  target: { projectId: string; itemId: string; languageId: string },
  action: string,
  body?: unknown,
): Promise<void> {
  await api(mapi(target.projectId, variantPath(target.itemId, target.languageId, `/${action}`)), {
    method: 'PUT',
    ...(body === undefined ? {} : { body }),
  });
  // The panel waits for the variant itself; the item's other queries (the form's) follow.
  await queryClient.invalidateQueries({ queryKey: variantKey(target.projectId, target.itemId, target.languageId) });
  void queryClient.invalidateQueries(
    { predicate: (q) => q.queryKey.some((part) => part === target.itemId) },
    { cancelRefetch: false },
  );
}
