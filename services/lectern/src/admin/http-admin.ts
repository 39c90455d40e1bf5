import { AdminError, type AdminPort, type IssuedKeyJson, type KeyJson, type ProjectJson } from './admin-port.ts';
import { httpWebhookAdmin } from './webhook-admin.ts';
import { httpEnvironmentAdmin } from './environment-admin.ts';

/** The admin port over a running server's admin API (`<management url>/admin`). */
export function httpAdmin(options: { managementUrl: string; operatorToken: string }): AdminPort {
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${options.managementUrl}/admin${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.operatorToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new Error(
        `Cannot reach the Lectern server at ${options.managementUrl} (${(error as Error).message}). Is it still running?`,
        { cause: error },
      );
    }
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const problems = ((json['validation_errors'] as { message: string; path?: string }[] | undefined) ?? []).map(
        (v) => (v.path ? `${v.path}: ${v.message}` : v.message),
      );
      throw new AdminError(
        String(json['message'] ?? `HTTP ${response.status}`),
        Number(json['error_code'] ?? 0),
        problems,
      );
    }
    return json as T;
  }
  const omitUndefined = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return {
    ...httpWebhookAdmin(request),
    ...httpEnvironmentAdmin(request),
    listProjects: async () => (await request<{ projects: ProjectJson[] }>('GET', '/projects')).projects,
    createProject: (input) =>
      request(
        'POST',
        '/projects',
        omitUndefined({ name: input.name, environment: input.environment, secure_access: input.secureAccess }),
      ),
    updateProject: (id, input) =>
      request(
        'PATCH',
        `/projects/${encodeURIComponent(id)}`,
        omitUndefined({ name: input.name, secure_access: input.secureAccess }),
      ),
    recsTracking: (id, isManual) =>
      isManual === undefined
        ? request('GET', `/projects/${encodeURIComponent(id)}/recommendations`)
        : request('PUT', `/projects/${encodeURIComponent(id)}/recommendations`, { manual_tracking: isManual }),
    listKeys: async (id) =>
      (await request<{ keys: KeyJson[] }>('GET', `/projects/${encodeURIComponent(id)}/keys`)).keys,
    createKey: (id, input) =>
      request<IssuedKeyJson>(
        'POST',
        `/projects/${encodeURIComponent(id)}/keys`,
        omitUndefined({ kind: input.kind, user_email: input.userEmail, validity_days: input.validityDays }),
      ),
    regenerateKey: (keyId) => request('POST', `/keys/${encodeURIComponent(keyId)}/regenerate`),
    revokeKey: (keyId) => request('POST', `/keys/${encodeURIComponent(keyId)}/revoke`),
    close: async () => undefined,
  };
}
