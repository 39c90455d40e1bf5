import { useQuery } from '@tanstack/react-query';
import { api, mapi } from '../../api/client.ts';
import { listAll } from '../../api/project-model.ts';
import { useSession } from '../../api/session.ts';

/* The custom apps registered through the Management API (`/custom-apps`) and who may use them. */

export interface CustomAppJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly source_url: string;
  readonly config: string | null;
  readonly allowed_roles: readonly { id: string }[];
  readonly display_mode?: 'fullScreen' | 'dialog';
}

export interface RoleJson {
  readonly id: string;
  readonly name: string;
  readonly codename?: string;
}

export function useCustomApps(projectId: string) {
  return useQuery({
    queryKey: ['model', projectId, 'custom-apps'],
    queryFn: () => listAll<CustomAppJson>(projectId, '/custom-apps', 'custom_apps'),
    staleTime: 60_000,
    enabled: projectId !== '',
  });
}

export function useRoles(projectId: string) {
  return useQuery({
    queryKey: ['model', projectId, 'roles'],
    queryFn: async () => (await api<{ roles: RoleJson[] }>(mapi(projectId, '/roles'))).roles,
    staleTime: 5 * 60_000,
    enabled: projectId !== '',
  });
}

/** The person's roles in the project ({id, codename} as the custom app SDK names them). */
export function useMyRoles(projectId: string): RoleJson[] | null {
  const session = useSession();
  const roles = useRoles(projectId);
  const names = session.data?.projects.find((p) => p.id === projectId)?.roles;
  if (!names || !roles.data) return null;
  return roles.data.filter((r) => names.includes(r.name));
}

/** Whether a person with `mine` may use `app`: an empty `allowed_roles` lets everyone (as Kontent.ai does). */
export function mayUse(app: CustomAppJson, mine: readonly RoleJson[]): boolean {
  return app.allowed_roles.length === 0 || app.allowed_roles.some((a) => mine.some((r) => r.id === a.id));
}

/** The apps the person may use, in `mode` (fullScreen apps are in the navigation, dialog apps in the item editor). */
export function useVisibleApps(projectId: string, mode: 'fullScreen' | 'dialog'): CustomAppJson[] {
  const apps = useCustomApps(projectId);
  const mine = useMyRoles(projectId);
  if (!apps.data || !mine) return [];
  return apps.data.filter((a) => (a.display_mode ?? 'fullScreen') === mode && mayUse(a, mine));
}
