import { createApiKey, createProject, operator, randomIds, type ApiKeyKind, type CoreDeps } from '@lectern/core';
import { openPgliteStore, type SqlStore } from '@lectern/store-sql';
import { createTestClock, type TestClock } from './test-clock.ts';

export interface TestCore extends CoreDeps {
  readonly store: SqlStore;
  readonly clock: TestClock;
}

/** Core dependencies on a fresh in-memory PGlite store and a test clock. */
export async function openTestCore(): Promise<TestCore> {
  return { store: await openPgliteStore(), clock: createTestClock(), ids: randomIds };
}

/** Creates a project and issues the given keys; returns the project id and each key's value by kind. */
export async function seedProject(
  core: CoreDeps,
  kinds: readonly ApiKeyKind[],
  options: { isSecureAccess?: boolean } = {},
): Promise<{ projectId: string; keys: Partial<Record<ApiKeyKind, { id: string; value: string }>> }> {
  const project = await createProject(core, { actor: operator, name: 'Test project', ...options });
  const keys: Partial<Record<ApiKeyKind, { id: string; value: string }>> = {};
  for (const kind of kinds) {
    const issued = await createApiKey(core, {
      actor: operator,
      projectId: project.id,
      kind,
      ...(kind === 'management' ? { userEmail: 'tester@example.com' } : {}),
    });
    keys[kind] = { id: issued.key.id, value: issued.secret };
  }
  return { projectId: project.id, keys };
}
