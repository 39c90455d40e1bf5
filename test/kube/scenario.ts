import { setTimeout as sleep } from 'node:timers/promises';
import { viaIngress, type IngressAnswer } from './release.ts';

/** The project the scenario publishes into, made through the admin API on the manage. host. */
export interface KubeProject {
  readonly projectId: string;
  readonly managementKey: string;
  readonly operatorToken: string;
}

/** Throws unless 2xx; the answer's JSON otherwise. */
export function jsonOf(answer: IngressAnswer, what: string): Record<string, unknown> {
  if (answer.status < 200 || answer.status > 299) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer.text ? (JSON.parse(answer.text) as Record<string, unknown>) : {};
}

/** A project with a management key, created through `manage.` (the Ingress → Management pods). */
export async function createProject(ingressUrl: string, operatorToken: string): Promise<KubeProject> {
  const admin = async (path: string, body: unknown) =>
    jsonOf(
      await viaIngress(ingressUrl, 'manage', `/admin${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      `POST /admin${path}`,
    );
  const projectId = String((await admin('/projects', { name: 'Kube test' }))['id']);
  const managementKey = String(
    (await admin(`/projects/${projectId}/keys`, { kind: 'management', user_email: 'kube@lectern.test' }))['api_key'],
  );
  return { projectId, managementKey, operatorToken };
}

/** A Management API call through `manage.`; throws unless 2xx. */
export async function manage(
  ingressUrl: string,
  project: KubeProject,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  return jsonOf(
    await viaIngress(ingressUrl, 'manage', `/v2/projects/${project.projectId}${path}`, {
      method,
      headers: { authorization: `Bearer ${project.managementKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    `${method} ${path}`,
  );
}

/** Repeats `read` until it returns `want` or `timeoutMs` passes; returns the last value read. */
export async function poll<T>(read: () => Promise<T>, want: T, timeoutMs: number, everyMs = 500): Promise<T> {
  const until = Date.now() + timeoutMs;
  let got = await read().catch((e: Error) => e.message as T);
  while (JSON.stringify(got) !== JSON.stringify(want) && Date.now() < until) {
    await sleep(everyMs);
    got = await read().catch((e: Error) => e.message as T);
  }
  return got;
}
