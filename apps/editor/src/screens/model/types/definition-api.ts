import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, mapi } from '../../../api/client.ts';
import { listAll } from '../../../api/project-model.ts';
import type { Session } from '../../../api/session.ts';
import type { Body, DefinitionJson, DefinitionKind, PatchOp } from './definition-draft.ts';

/*
 * The content types and snippets of a project through the Management API v2 under /app/api:
 * `GET/POST …/types`, `GET/PATCH/DELETE …/types/{id}` (and the same for `/snippets`), and the
 * editor's impact check `POST /app/api/projects/{id}/types/{id}/impact` (docs/editor-api.md).
 */

/** The list key: the content types one is the same key the item editor and inventory read. */
export function definitionsKey(projectId: string, kind: DefinitionKind) {
  return ['model', projectId, kind] as const;
}

export function useDefinitions(projectId: string, kind: DefinitionKind) {
  return useQuery({
    queryKey: definitionsKey(projectId, kind),
    queryFn: () => listAll<DefinitionJson>(projectId, `/${kind}`, kind),
    staleTime: 60_000,
  });
}

export function useDefinition(projectId: string, kind: DefinitionKind, id: string | null) {
  return useQuery({
    queryKey: ['model', projectId, kind, 'one', id],
    queryFn: () => api<DefinitionJson>(mapi(projectId, `/${kind}/${encodeURIComponent(id ?? '')}`)),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** Taxonomy groups (for taxonomy elements), as the Management API lists them. */
export interface TaxonomyJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly terms: readonly TaxonomyJson[];
}

export function useTaxonomies(projectId: string) {
  return useQuery({
    queryKey: ['model', projectId, 'taxonomies'],
    queryFn: () => listAll<TaxonomyJson>(projectId, '/taxonomies', 'taxonomies'),
    staleTime: 60_000,
  });
}

export async function createDefinition(projectId: string, kind: DefinitionKind, body: Body): Promise<DefinitionJson> {
  return api<DefinitionJson>(mapi(projectId, `/${kind}`), { method: 'POST', body });
}

export async function patchDefinition(
  projectId: string,
  kind: DefinitionKind,
  id: string,
  operations: readonly PatchOp[],
): Promise<DefinitionJson> {
  return api<DefinitionJson>(mapi(projectId, `/${kind}/${encodeURIComponent(id)}`), {
    method: 'PATCH',
    body: operations,
  });
}

export async function deleteDefinition(projectId: string, kind: DefinitionKind, id: string): Promise<void> {
  await api(mapi(projectId, `/${kind}/${encodeURIComponent(id)}`), { method: 'DELETE' });
}

/** The server's answer to the impact check (core `ImpactJson`). */
export interface Impact {
  readonly variants_checked: number;
  readonly is_complete: boolean;
  readonly affected: { readonly item_count: number; readonly variant_count: number };
  readonly changes: readonly {
    readonly kind: string;
    readonly element: { readonly id: string; readonly codename: string; readonly name: string };
    readonly message: string;
    readonly item_count: number;
    readonly variant_count: number;
    readonly items: readonly { readonly id: string; readonly codename: string; readonly name: string }[];
  }[];
}

export async function checkImpact(
  projectId: string,
  kind: DefinitionKind,
  id: string,
  operations: readonly PatchOp[],
): Promise<Impact> {
  return api<Impact>(`/projects/${encodeURIComponent(projectId)}/${kind}/${encodeURIComponent(id)}/impact`, {
    method: 'POST',
    body: operations,
  });
}

/** After a change: the lists (and the item editor's model) read again. */
export async function refreshModel(queryClient: QueryClient, projectId: string): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: ['model', projectId] });
}

/**
 * Whether the person may change the content model (their roles give `manage_model`): Reviewers and
 * Content creators see it read-only, and core refuses a forged change all the same.
 */
export function canManageModel(session: Session | null | undefined, projectId: string): boolean {
  return session?.projects.find((p) => p.id === projectId)?.permissions.includes('manage_model') ?? false;
}
