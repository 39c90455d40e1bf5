import {
  changeUserRoles,
  deleteEnvironment,
  getBackgroundTask,
  getProject,
  inviteUser,
  issuePersonLink,
  listProjectUsers,
  listRoles,
  operator,
  permissionsOfRole,
  startBackgroundTasks,
  startClone,
  type CoreDeps,
  type Permission,
  type ProjectUserSummary,
  type TaskRunner,
} from '@lectern/core';
import { projectJson, taskJson } from '@lectern/management';

export type TaskJson = ReturnType<typeof taskJson>;
export interface ClonedJson {
  project: ReturnType<typeof projectJson>;
  task_id: string;
  management_api_key: string;
  delivery_api_key: string;
  preview_api_key: string;
}
export type InvitedUser = ProjectUserSummary & { invitation_url: string; invitation_expires_at: string };
export interface PersonLinkJson {
  email: string;
  purpose: 'invite' | 'reset';
  url: string;
  expires_at: string;
}
export interface RoleView {
  id: string;
  name: string;
  codename?: string;
  permissions: readonly Permission[];
}

/** What the CLI does to environments, their users and roles, through the admin API or on the store. */
export interface EnvironmentAdmin {
  /** Starts a copy of the environment (a background task: follow it with `getTask`). */
  cloneEnvironment(
    projectId: string,
    input: { name: string; copyContent?: boolean; userEmail?: string },
  ): Promise<ClonedJson>;
  getTask(taskId: string): Promise<TaskJson>;
  deleteProject(projectId: string): Promise<void>;
  listUsers(projectId: string): Promise<ProjectUserSummary[]>;
  /** Invites the user in the roles (role ids), in every collection and language; with their invitation link. */
  inviteUser(projectId: string, input: { email: string; roles: string[] }): Promise<InvitedUser>;
  /** A new one-time link for an invited user: `reset` (1 hour) or `invite` (7 days). */
  personLink(projectId: string, email: string, purpose: 'invite' | 'reset'): Promise<PersonLinkJson>;
  setUserRoles(projectId: string, email: string, roles: string[]): Promise<ProjectUserSummary>;
  listRoles(projectId: string): Promise<RoleView[]>;
}

const groupsOf = (roles: readonly string[]) => [{ collections: [], roles: roles.map((id) => ({ id, languages: [] })) }];

/**
 * The environment commands on an open store, as the operator. With no server running, this
 * process runs the clone's background task itself (`stopTasks` waits for it; call it on close).
 */
export function directEnvironmentAdmin(
  core: CoreDeps,
  call: <T>(work: () => Promise<T>) => Promise<T>,
  options: { managementUrl: string },
): EnvironmentAdmin & { stopTasks(): Promise<void> } {
  const actor = operator;
  const link = async (projectId: string, email: string, purpose: 'invite' | 'reset'): Promise<PersonLinkJson> => {
    const issued = await issuePersonLink(core, { actor, projectId, email, purpose });
    const url = `${options.managementUrl.replace(/\/+$/, '')}/app/accept#${issued.token}`;
    return { email: issued.email, purpose, url, expires_at: issued.expiresAt.toISOString() };
  };
  let runner: TaskRunner | null = null;
  const userByEmail = async (projectId: string, email: string) => {
    const found = (await listProjectUsers(core, { actor, projectId })).find((u) => u.email === email.toLowerCase());
    if (!found) throw new Error(`No user ${email} in project ${projectId}.`);
    return found;
  };
  return {
    cloneEnvironment: (projectId, input) =>
      call(async () => {
        const started = await startClone(core, {
          actor,
          projectId,
          body: { name: input.name, copy_data_options: { content_items_assets: input.copyContent ?? true } },
          ...(input.userEmail === undefined ? {} : { keyOwnerEmail: input.userEmail }),
        });
        runner ??= startBackgroundTasks(core, { runnerId: `cli-${process.pid}`, intervalMs: 200 });
        runner.wake();
        return {
          project: projectJson(started.project),
          task_id: started.taskId,
          management_api_key: started.keys.management,
          delivery_api_key: started.keys.delivery,
          preview_api_key: started.keys.preview,
        };
      }),
    getTask: (taskId) => call(async () => taskJson(await getBackgroundTask(core, { actor, taskId }))),
    deleteProject: (projectId) => call(() => deleteEnvironment(core, { actor, projectId })),
    listUsers: (projectId) => call(() => listProjectUsers(core, { actor, projectId })),
    inviteUser: (projectId, input) =>
      call(async () => {
        await inviteUser(core, { actor, projectId, body: { email: input.email, collection_groups: groupsOf(input.roles) } });
        const user = await userByEmail(projectId, input.email);
        const issued = await link(projectId, input.email, 'invite');
        return { ...user, invitation_url: issued.url, invitation_expires_at: issued.expires_at };
      }),
    personLink: (projectId, email, purpose) => call(() => link(projectId, email, purpose)),
    setUserRoles: (projectId, email, roles) =>
      call(async () => {
        await changeUserRoles(core, { actor, projectId, user: { email: email.toLowerCase() }, body: { collection_groups: groupsOf(roles) } });
        return userByEmail(projectId, email);
      }),
    listRoles: (projectId) =>
      call(async () => {
        await getProject(core, { actor, projectId });
        return (await listRoles(core, { actor, projectId })).map((r) => ({
          ...r,
          permissions: permissionsOfRole(r.name.toLowerCase().replaceAll(' ', '-')),
        }));
      }),
    async stopTasks() {
      await runner?.stop();
    },
  };
}

/** The environment commands over the admin API (`/admin/projects/{id}/…`, `/admin/tasks/{id}`). */
export function httpEnvironmentAdmin(
  request: <T>(method: string, path: string, body?: unknown) => Promise<T>,
): EnvironmentAdmin {
  const project = (id: string, rest = '') => `/projects/${encodeURIComponent(id)}${rest}`;
  return {
    cloneEnvironment: (p, input) =>
      request('POST', project(p, '/clone'), {
        name: input.name,
        ...(input.copyContent === undefined ? {} : { copy_content: input.copyContent }),
        ...(input.userEmail === undefined ? {} : { user_email: input.userEmail }),
      }),
    getTask: (taskId) => request('GET', `/tasks/${encodeURIComponent(taskId)}`),
    deleteProject: async (p) => {
      await request('DELETE', project(p));
    },
    listUsers: async (p) => (await request<{ users: ProjectUserSummary[] }>('GET', project(p, '/users'))).users,
    inviteUser: (p, input) => request('POST', project(p, '/users'), input),
    personLink: (p, email, purpose) =>
      request('POST', project(p, `/users/${encodeURIComponent(email)}/links`), { purpose }),
    setUserRoles: (p, email, roles) => request('PUT', project(p, `/users/${encodeURIComponent(email)}/roles`), { roles }),
    listRoles: async (p) => (await request<{ roles: RoleView[] }>('GET', project(p, '/roles'))).roles,
  };
}
