import type { ApiKeyKind } from '@lectern/core';
import type { issuedKeyJson, keyJson, projectJson } from '@lectern/management';
import type { EnvironmentAdmin } from './environment-admin.ts';
import type { WebhookAdmin } from './webhook-admin.ts';

export type ProjectJson = ReturnType<typeof projectJson>;
export type KeyJson = ReturnType<typeof keyJson>;
export type IssuedKeyJson = ReturnType<typeof issuedKeyJson>;

/**
 * What the CLI does to projects and keys. Two implementations with one behaviour: through a
 * running server's admin API, or directly on the store when no server runs.
 */
export interface AdminPort extends WebhookAdmin, EnvironmentAdmin {
  listProjects(): Promise<ProjectJson[]>;
  createProject(input: { name: string; environment?: string; secureAccess?: boolean }): Promise<ProjectJson>;
  updateProject(projectId: string, input: { name?: string; secureAccess?: boolean }): Promise<ProjectJson>;
  listKeys(projectId: string): Promise<KeyJson[]>;
  createKey(
    projectId: string,
    input: { kind: ApiKeyKind; userEmail?: string; validityDays?: number },
  ): Promise<IssuedKeyJson>;
  regenerateKey(keyId: string): Promise<IssuedKeyJson>;
  revokeKey(keyId: string): Promise<KeyJson>;
  /** Whether the project tracks recommendation visits manually; sets it first when given. */
  recsTracking(projectId: string, isManual?: boolean): Promise<{ manual_tracking: boolean }>;
  close(): Promise<void>;
}

/** A failed admin call: the API's message and error code, plus validation problems. */
export class AdminError extends Error {
  readonly errorCode: number;
  readonly problems: readonly string[];
  constructor(message: string, errorCode: number, problems: readonly string[] = []) {
    super(message);
    this.name = 'AdminError';
    this.errorCode = errorCode;
    this.problems = problems;
  }
}
