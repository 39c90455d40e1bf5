/** A project made through the admin API, with one key of each kind the cluster test needs. */
export interface ClusterProject {
  readonly projectId: string;
  readonly managementKey: string;
  readonly deliveryKey: string;
  readonly previewKey: string;
}

/** Calls the admin API (`/admin` on the Management port) with the operator token; throws unless 2xx. */
async function admin(options: {
  url: string;
  token: string;
  path: string;
  body: unknown;
}): Promise<Record<string, unknown>> {
  const response = await fetch(`${options.url}/admin${options.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /admin${options.path}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Creates a project and its management (for `userEmail`), primary delivery and primary preview keys. */
export async function createProjectWithKeys(options: {
  managementUrl: string;
  operatorToken: string;
  name: string;
  userEmail: string;
}): Promise<ClusterProject> {
  const call = (path: string, body: unknown) =>
    admin({ url: options.managementUrl, token: options.operatorToken, path, body });
  const project = await call('/projects', { name: options.name });
  const projectId = String(project['id']);
  const key = async (kind: string, extra: Record<string, string> = {}) =>
    String((await call(`/projects/${projectId}/keys`, { kind, ...extra }))['api_key']);
  return {
    projectId,
    managementKey: await key('management', { user_email: options.userEmail }),
    deliveryKey: await key('delivery_primary'),
    previewKey: await key('preview_primary'),
  };
}
