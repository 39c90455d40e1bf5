import {
  addWebhook,
  changeWebhookUrl,
  deleteWebhook,
  getWebhook,
  listWebhookNotifications,
  listWebhooks,
  operator,
  resetWebhook,
  setWebhookEnabled,
  webhookJson,
  webhookNotificationJson,
  type CoreDeps,
} from '@lectern/core';

export type WebhookJson = ReturnType<typeof webhookJson>;
export type WebhookNotificationJson = ReturnType<typeof webhookNotificationJson>;

/** What the CLI does to webhooks (the `/webhooks-vnext` ones), through the admin API or on the store. */
export interface WebhookAdmin {
  listWebhooks(projectId: string): Promise<WebhookJson[]>;
  addWebhook(projectId: string, body: Record<string, unknown>): Promise<WebhookJson>;
  getWebhook(projectId: string, id: string): Promise<WebhookJson>;
  setWebhookEnabled(projectId: string, id: string, isEnabled: boolean): Promise<void>;
  deleteWebhook(projectId: string, id: string): Promise<void>;
  resetWebhook(projectId: string, id: string): Promise<void>;
  setWebhookUrl(projectId: string, id: string, url: string): Promise<WebhookJson>;
  webhookNotifications(projectId: string, id: string, filter: string): Promise<WebhookNotificationJson[]>;
}

/** The webhook commands on an open store, as the operator. `call` maps catalogue errors. */
export function directWebhookAdmin(core: CoreDeps, call: <T>(work: () => Promise<T>) => Promise<T>): WebhookAdmin {
  const base = (projectId: string) => ({ actor: operator, projectId, format: 'vnext' as const });
  const one = (projectId: string, id: string) => ({ ...base(projectId), id });
  return {
    listWebhooks: (p) => call(async () => (await listWebhooks(core, base(p))).map(webhookJson)),
    addWebhook: (p, body) => call(async () => webhookJson(await addWebhook(core, { ...base(p), body }))),
    getWebhook: (p, id) => call(async () => webhookJson(await getWebhook(core, one(p, id)))),
    setWebhookEnabled: (p, id, isEnabled) =>
      call(async () => void (await setWebhookEnabled(core, { ...one(p, id), isEnabled }))),
    deleteWebhook: (p, id) => call(() => deleteWebhook(core, one(p, id))),
    resetWebhook: (p, id) => call(async () => void (await resetWebhook(core, one(p, id)))),
    setWebhookUrl: (p, id, url) =>
      call(async () => webhookJson(await changeWebhookUrl(core, { ...one(p, id), body: { url } }))),
    webhookNotifications: (p, id, filter) =>
      call(async () => (await listWebhookNotifications(core, { ...one(p, id), filter })).map(webhookNotificationJson)),
  };
}

/** The webhook commands over the admin API (`/admin/projects/{id}/webhooks-vnext…`). */
export function httpWebhookAdmin(
  request: <T>(method: string, path: string, body?: unknown) => Promise<T>,
): WebhookAdmin {
  const path = (projectId: string, rest = '') =>
    `/projects/${encodeURIComponent(projectId)}/webhooks-vnext${rest}`;
  const id = (value: string) => `/${encodeURIComponent(value)}`;
  return {
    listWebhooks: (p) => request('GET', path(p)),
    addWebhook: (p, body) => request('POST', path(p), body),
    getWebhook: (p, w) => request('GET', path(p, id(w))),
    setWebhookEnabled: async (p, w, isEnabled) => {
      await request('PUT', path(p, `${id(w)}/${isEnabled ? 'enable' : 'disable'}`), {});
    },
    deleteWebhook: async (p, w) => {
      await request('DELETE', path(p, id(w)));
    },
    resetWebhook: async (p, w) => {
      await request('POST', path(p, `${id(w)}/reset`));
    },
    setWebhookUrl: (p, w, url) => request('PUT', path(p, `${id(w)}/url`), { url }),
    webhookNotifications: async (p, w, filter) =>
      (
        await request<{ notifications: WebhookNotificationJson[] }>(
          'GET',
          path(p, `${id(w)}/notifications?filter=${encodeURIComponent(filter)}`),
        )
      ).notifications,
  };
}
