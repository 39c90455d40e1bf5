import {
  createApiKey,
  createProject,
  listApiKeys,
  listProjects,
  operator,
  randomIds,
  regenerateApiKey,
  revokeApiKey,
  systemClock,
  getProject,
  updateProject,
  type CoreDeps,
  fixedAuditScope,
  runAudited,
} from '@lectern/core';
import { isLecternError, toManagementError } from '@lectern/errors';
import { issuedKeyJson, keyJson, projectJson } from '@lectern/management';
import { createSqlRecsTracking } from '@lectern/recs-sql';
import type { SqlStore } from '@lectern/store-sql';
import { AdminError, type AdminPort } from './admin-port.ts';
import { directWebhookAdmin } from './webhook-admin.ts';
import { directEnvironmentAdmin } from './environment-admin.ts';

/** Runs `work`, turning catalogue errors into the same AdminError the HTTP client raises. */
/** Runs an admin command's work as the operator through the CLI (its changes are audited so). */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await runAudited(fixedAuditScope({ via: 'cli', actor: operator }), work);
  } catch (error) {
    if (!isLecternError(error)) throw error;
    const { body } = toManagementError(error, 'cli');
    throw new AdminError(
      body.message,
      body.error_code,
      (body.validation_errors ?? []).map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)),
    );
  }
}

/** Where links point when no server runs and no public URL is set: the embedded server's default. */
export const defaultManagementUrl = 'http://localhost:4400';

/** The admin port on an open store (no server running). `onClose` releases what the caller opened. */
export function directAdmin(
  store: SqlStore,
  onClose: () => void,
  options: { managementUrl: string } = { managementUrl: defaultManagementUrl },
): AdminPort {
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const actor = operator;
  const { stopTasks, ...environments } = directEnvironmentAdmin(core, call, options);
  return {
    ...directWebhookAdmin(core, call),
    ...environments,
    listProjects: () => call(async () => (await listProjects(core, { actor })).map(projectJson)),
    createProject: (input) =>
      call(async () =>
        projectJson(
          await createProject(core, {
            actor,
            name: input.name,
            ...(input.environment === undefined ? {} : { environment: input.environment }),
            ...(input.secureAccess === undefined ? {} : { isSecureAccess: input.secureAccess }),
          }),
        ),
      ),
    updateProject: (projectId, input) =>
      call(async () =>
        projectJson(
          await updateProject(core, {
            actor,
            projectId,
            ...(input.name === undefined ? {} : { name: input.name }),
            ...(input.secureAccess === undefined ? {} : { isSecureAccess: input.secureAccess }),
          }),
        ),
      ),
    recsTracking: (projectId, isManual) =>
      call(async () => {
        const project = await getProject(core, { actor, projectId });
        const tracking = createSqlRecsTracking({ db: store.db as never });
        if (isManual !== undefined) await tracking.setManualTracking(project.id, isManual);
        return { manual_tracking: await tracking.isManualTracking(project.id) };
      }),
    listKeys: (projectId) => call(async () => (await listApiKeys(core, { actor, projectId })).map(keyJson)),
    createKey: (projectId, input) =>
      call(async () =>
        issuedKeyJson(
          await createApiKey(core, {
            actor,
            projectId,
            kind: input.kind,
            ...(input.userEmail === undefined ? {} : { userEmail: input.userEmail }),
            ...(input.validityDays === undefined ? {} : { validityDays: input.validityDays }),
          }),
        ),
      ),
    regenerateKey: (keyId) => call(async () => issuedKeyJson(await regenerateApiKey(core, { actor, keyId }))),
    revokeKey: (keyId) => call(async () => keyJson(await revokeApiKey(core, { actor, keyId }))),
    async close() {
      await stopTasks();
      await store.close();
      onClose();
    },
  };
}
