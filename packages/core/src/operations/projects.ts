import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import type { Project } from '../domain/project.ts';
import type { CoreDeps } from '../deps.ts';
import { assertMayChange } from '../model/shared/index.ts';
import { appendProjectEvent } from './project-events.ts';
import { requireOperator } from './require-operator.ts';
import { isUuid } from '../domain/uuid.ts';
import { seedDefaultModel } from '../model/defaults.ts';
import { characterCount } from '../model/shared/index.ts';

export const projectNameMax = 200;

function validName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || characterCount(trimmed) > projectNameMax) {
    throw new LecternError('INVALID_REQUEST_BODY', {
      problems: [{ path: 'name', message: `must be 1 to ${projectNameMax} characters` }],
    });
  }
  return trimmed;
}

export async function createProject(
  deps: CoreDeps,
  input: { actor: Actor; name: string; environment?: string; isSecureAccess?: boolean; id?: string },
): Promise<Project> {
  requireOperator(input.actor);
  const project: Project = {
    id: input.id ?? deps.ids.uuid(),
    name: validName(input.name),
    environment: input.environment?.trim() || 'Production',
    isSecureAccess: input.isSecureAccess ?? false,
    isProduction: true,
    createdAt: deps.clock.now(),
  };
  return deps.store.transaction(async (tx) => {
    await tx.projects.insert(project);
    await seedDefaultModel(tx, { projectId: project.id, now: project.createdAt });
    await appendProjectEvent(tx, {
      projectId: project.id,
      operation: 'create',
      payload: { name: project.name },
      at: project.createdAt,
    });
    return project;
  });
}

export async function listProjects(deps: CoreDeps, input: { actor: Actor }): Promise<Project[]> {
  requireOperator(input.actor);
  return deps.store.transaction((tx) => tx.projects.list());
}

/** A project visible to the actor: operators see all, key holders only their own. */
export async function getProject(deps: CoreDeps, input: { actor: Actor; projectId: string }): Promise<Project> {
  if (input.actor.type !== 'operator' && input.actor.projectId !== input.projectId) {
    throw new LecternError('PROJECT_ACCESS_DENIED');
  }
  if (!isUuid(input.projectId)) throw new LecternError('PROJECT_NOT_FOUND');
  const project = await deps.store.transaction((tx) => tx.projects.get(input.projectId));
  if (!project) throw new LecternError('PROJECT_NOT_FOUND');
  return project;
}

/**
 * `PATCH /v2/projects/{id}` with `[{"op": "rename_environment", "value": "…"}]`: renames the
 * environment, for the operator or a management key of the project.
 */
export async function renameEnvironment(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string; operations: unknown },
): Promise<Project> {
  const ops = input.operations;
  const problems: { path?: string; message: string }[] = [];
  if (!Array.isArray(ops) || ops.length === 0)
    problems.push({ message: 'The body must be a non-empty array of operations.' });
  let environment: string | undefined;
  for (const [i, op] of (Array.isArray(ops) ? ops : []).entries()) {
    const o = op as { op?: unknown; value?: unknown } | null;
    if (o?.op !== 'rename_environment')
      problems.push({
        path: `[${i}].op`,
        message: `Invalid operation with index '${i}': the only operation is rename_environment.`,
      });
    else if (typeof o.value !== 'string' || o.value.trim() === '' || characterCount(o.value) > projectNameMax)
      problems.push({
        path: `[${i}].value`,
        message: `Provide a nonempty name which fits within ${projectNameMax} characters.`,
      });
    else environment = o.value.trim();
  }
  if (problems.length > 0 || environment === undefined) throw new LecternError('INVALID_REQUEST_BODY', { problems });
  if (input.actor.type !== 'operator') assertMayChange(input.actor, input.projectId, 'manage_environment');
  await getProject(deps, { actor: input.actor, projectId: input.projectId });
  return deps.store.transaction(async (tx) => {
    const updated = await tx.projects.update(input.projectId, { environment });
    if (!updated) throw new LecternError('PROJECT_NOT_FOUND');
    await appendProjectEvent(tx, {
      projectId: updated.id,
      operation: 'update',
      payload: { environment },
      at: deps.clock.now(),
    });
    return updated;
  });
}

export async function updateProject(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string; name?: string; isSecureAccess?: boolean },
): Promise<Project> {
  requireOperator(input.actor);
  const changes = {
    ...(input.name === undefined ? {} : { name: validName(input.name) }),
    ...(input.isSecureAccess === undefined ? {} : { isSecureAccess: input.isSecureAccess }),
  };
  return deps.store.transaction(async (tx) => {
    const updated = await tx.projects.update(input.projectId, changes);
    if (!updated) throw new LecternError('PROJECT_NOT_FOUND');
    await appendProjectEvent(tx, {
      projectId: updated.id,
      operation: 'update',
      payload: changes,
      at: deps.clock.now(),
    });
    return updated;
  });
}
