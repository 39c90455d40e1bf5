import { LecternError } from '@lectern/errors';
import { createCachedAuthenticator, parseKey, type CoreDeps, type Signals } from '@lectern/core';

export interface RecsAuthenticator {
  /** The project the request's recommendations key belongs to; throws the SPEC 5 errors. */
  projectOf(authorization: string | undefined): Promise<string>;
}

const bearer = /^bearer\s+(\S+)\s*$/i;

/**
 * Recommendations requests name no project: the key does (SPEC 5). The key's project is looked up
 * once per key id (a key never changes project), then the request is authenticated for that
 * project like any API: missing or unknown key 401, revoked 401, a key of another kind 401. The
 * outcome is kept for a second and dropped at once when the `access` signal says a key changed.
 */
export function createRecsAuthenticator(options: { core: CoreDeps; signals?: Signals }): RecsAuthenticator {
  const { core } = options;
  const cached = createCachedAuthenticator(core, { ttlMs: 1_000 });
  void options.signals?.subscribe({
    topic: 'access',
    listener: (projectId) => cached.forget(projectId),
    onReset: () => cached.forget(null),
  });
  const projects = new Map<string, string>();
  return {
    async projectOf(authorization) {
      const presented = authorization === undefined ? null : bearer.exec(authorization)?.[1];
      if (!presented) throw new LecternError('API_KEY_MISSING');
      const parsed = parseKey(presented);
      if (!parsed) throw new LecternError('API_KEY_INVALID');
      let projectId = projects.get(parsed.keyId);
      if (projectId === undefined) {
        const key = await core.store.transaction((tx) => tx.apiKeys.get(parsed.keyId));
        if (!key) throw new LecternError('API_KEY_INVALID');
        projectId = key.projectId;
        if (projects.size > 10_000) projects.clear();
        projects.set(parsed.keyId, projectId);
      }
      await cached.authenticate({ api: 'recommendations', projectId, authorization });
      return projectId;
    },
  };
}
