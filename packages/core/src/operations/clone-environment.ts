import { LecternError } from '@lectern/errors';
import { operator, userIdOf } from '../domain/actor.ts';
import type { Project } from '../domain/project.ts';
import type { CoreDeps } from '../deps.ts';
import { readName } from '../model/collections/model-fields.ts';
import { assertMayChange, assertModelAccess, isRecord, Problems, type ModelInput } from '../model/shared/index.ts';
import { isRoleId } from '../model/settings/roles.ts';
import { settingId } from '../model/settings/setting-store.ts';
import type { UnitOfWork } from '../ports/store.ts';
import { createApiKey } from './api-keys.ts';
import { appendProjectEvent } from './project-events.ts';

/*
 * Environments (reference §2.1): an environment is a project; the environments cloned from one
 * another form a group (a `environment_group` setting naming the first one), of which one is
 * production. Cloning copies the content model, settings, items, variants, asset folders and
 * assets (their files by reference: the copies point at the same blobs), keeping every id; keys
 * are not copied: the clone gets its own management key for the caller's user and its own
 * delivery and preview keys. The copy is a background task of the clone (`cloneTaskHandler`) that
 * any process's runner does and another continues if it stops; the clone's
 * `environment-cloning-state` reads that task. Scheduled publish jobs are not copied.
 */

export type CloningState = 'in_progress' | 'failed' | 'done';

export interface StartedClone {
  readonly project: Project;
  readonly source: Project;
  readonly isCopyingContent: boolean;
  /** The background task that copies (its progress: `getBackgroundTask`). */
  readonly taskId: string;
  readonly keys: { management: string; delivery: string; preview: string };
}

function settingRecord(projectId: string, name: 'cloning_state' | 'environment_group', body: object, now: Date) {
  return {
    projectId,
    kind: 'setting' as const,
    id: settingId(projectId, name),
    codename: name,
    externalId: null,
    body,
    lastModified: now,
  };
}

async function groupOf(tx: UnitOfWork, projectId: string): Promise<string> {
  const found = await tx.model.find<{ root: string }>(projectId, 'setting', {
    id: settingId(projectId, 'environment_group'),
  });
  return found?.body.root ?? projectId;
}

/** POST clone-environment: validates, creates the environment and its keys; the copy is `runClone`'s. */
export async function startClone(
  deps: CoreDeps,
  input: ModelInput & {
    body: unknown;
    /** Who owns the clone's management key when the operator clones (default operator@lectern.local). */
    keyOwnerEmail?: string;
  },
): Promise<StartedClone> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  const problems = new Problems();
  const body = isRecord(input.body) ? input.body : {};
  if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
  const name = readName(body['name'], 'name', problems, 200);
  const roles = body['roles_to_activate'];
  if (roles !== undefined && roles !== null) {
    if (!Array.isArray(roles)) problems.add('roles_to_activate', 'must be an array of role ids');
    else
      for (const [i, id] of roles.entries())
        if (typeof id !== 'string' || !isRoleId(input.projectId, id.toLowerCase()))
          problems.add(`roles_to_activate[${i}]`, 'The role was not found.');
  }
  const options = isRecord(body['copy_data_options']) ? body['copy_data_options'] : {};
  const copyContent = options['content_items_assets'];
  if (copyContent !== undefined && typeof copyContent !== 'boolean')
    problems.add('copy_data_options.content_items_assets', 'must be true or false');
  problems.throwIfAny();
  const actor = input.actor;
  const now = deps.clock.now();
  const taskId = deps.ids.uuid();
  const { source, project, email } = await deps.store.transaction(async (tx) => {
    const source = await tx.projects.get(input.projectId);
    if (!source) throw new LecternError('PROJECT_NOT_FOUND');
    const userId = userIdOf(actor);
    const user = userId ? await tx.users.get(userId) : null;
    const project: Project = {
      id: deps.ids.uuid(),
      name: source.name,
      environment: name as string,
      isSecureAccess: source.isSecureAccess,
      isProduction: false,
      createdAt: now,
    };
    await tx.projects.insert(project);
    await tx.model.insert(settingRecord(project.id, 'cloning_state', { task_id: taskId }, now));
    await tx.backgroundTasks.insert({
      id: taskId,
      projectId: project.id,
      kind: 'clone_environment',
      input: { sourceId: source.id, isCopyingContent: copyContent !== false },
      createdAt: now,
    });
    await tx.model.insert(settingRecord(project.id, 'environment_group', { root: await groupOf(tx, source.id) }, now));
    await appendProjectEvent(tx, {
      projectId: project.id,
      operation: 'create',
      payload: { name: project.name },
      at: now,
    });
    return { source, project, email: user?.email ?? null };
  });
  const issue = async (kind: 'management' | 'delivery_primary' | 'preview_primary') =>
    (
      await createApiKey(deps, {
        actor: operator,
        projectId: project.id,
        kind,
        ...(kind === 'management' ? { userEmail: email ?? input.keyOwnerEmail ?? 'operator@lectern.local' } : {}),
      })
    ).secret;
  return {
    project,
    source,
    isCopyingContent: copyContent !== false,
    taskId,
    keys: {
      management: await issue('management'),
      delivery: await issue('delivery_primary'),
      preview: await issue('preview_primary'),
    },
  };
}

/**
 * GET environment-cloning-state: of a clone, the state of the task that copies it (any process's
 * runner may be doing it); any other environment, and a clone whose ended task was pruned, `done`.
 */
export async function getCloningState(deps: CoreDeps, input: ModelInput): Promise<CloningState> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const found = await tx.model.find<{ task_id?: string }>(input.projectId, 'setting', {
      id: settingId(input.projectId, 'cloning_state'),
    });
    const task = found?.body.task_id === undefined ? null : await tx.backgroundTasks.get(found.body.task_id);
    if (!task) return 'done';
    return task.status === 'failed' ? 'failed' : task.status === 'finished' ? 'done' : 'in_progress';
  });
}

/**
 * PUT mark-environment-as-production: this environment becomes its group's production one and the
 * former one stops being it (232 when it already is). `enable_webhooks` is accepted; Lectern's
 * webhooks are per environment and keep their state.
 */
export async function markEnvironmentAsProduction(
  deps: CoreDeps,
  input: ModelInput & { body: unknown },
): Promise<void> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  const flag = isRecord(input.body) ? input.body['enable_webhooks'] : undefined;
  if (flag !== undefined && flag !== null && typeof flag !== 'boolean')
    throw new LecternError('INVALID_REQUEST_BODY', {
      problems: [{ path: 'enable_webhooks', message: 'must be true or false' }],
    });
  await deps.store.transaction(async (tx) => {
    const project = await tx.projects.get(input.projectId);
    if (!project) throw new LecternError('PROJECT_NOT_FOUND');
    if (project.isProduction) throw new LecternError('ENVIRONMENT_ALREADY_PRODUCTION');
    const group = await groupOf(tx, project.id);
    for (const other of await tx.projects.list())
      if (other.id !== project.id && other.isProduction && (await groupOf(tx, other.id)) === group)
        await tx.projects.update(other.id, { isProduction: false });
    await tx.projects.update(project.id, { isProduction: true });
  });
}

/**
 * DELETE the environment (reference §2.1): everything stored under it goes, its keys with it; the
 * production environment cannot be deleted (233), except by the operator when no other
 * environment shares its group (deleting the whole project).
 */
export async function deleteEnvironment(deps: CoreDeps, input: ModelInput): Promise<void> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  await deps.store.transaction(async (tx) => {
    const project = await tx.projects.get(input.projectId);
    if (!project) throw new LecternError('PROJECT_NOT_FOUND');
    // The operator may delete a production environment that is alone in its group (a project).
    if (project.isProduction) {
      const group = await groupOf(tx, project.id);
      let isAlone = input.actor.type === 'operator';
      for (const other of isAlone ? await tx.projects.list() : [])
        if (other.id !== project.id && (await groupOf(tx, other.id)) === group) isAlone = false;
      if (!isAlone) throw new LecternError('PRODUCTION_ENVIRONMENT_NOT_DELETABLE');
    }
    await tx.projects.delete(project.id);
  });
}
