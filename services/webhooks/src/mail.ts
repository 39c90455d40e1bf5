import type { Store, WebhookRecord } from '@lectern/core';
import type { MailSender } from '@lectern/http-kit';

export { createSmtpSender, type MailSender } from '@lectern/http-kit';

/** The e-mails of SPEC 6.7 about a webhook. */
export type WebhookMailKind = 'failing' | 'gave_up' | 'recovered';

/**
 * The people told about a project's webhooks: the users holding an active management key of the
 * project (Lectern's "Manage APIs" permission).
 */
export async function projectApiManagers(store: Store, projectId: string): Promise<string[]> {
  return store.transaction(async (tx) => {
    const keys = await tx.apiKeys.listByProject(projectId);
    const userIds = new Set(
      keys
        .filter((k) => k.kind === 'management' && k.revokedAt === null && k.ownerUserId !== null)
        .map((k) => k.ownerUserId as string),
    );
    const emails: string[] = [];
    for (const id of userIds) {
      const user = await tx.users.get(id);
      if (user) emails.push(user.email);
    }
    return emails.sort();
  });
}

/** Subject and text of each e-mail; never the secret or the custom headers. */
export function webhookMail(kind: WebhookMailKind, webhook: WebhookRecord): { subject: string; text: string } {
  const about = `Webhook "${webhook.name}" (${webhook.id}) of project ${webhook.projectId}, URL ${webhook.url}`;
  switch (kind) {
    case 'failing':
      return {
        subject: `Webhook "${webhook.name}" has been failing for an hour`,
        text: `${about}:\n\nDelivery has failed repeatedly for 1 hour. Lectern keeps retrying (hourly, for up to 3 days per notification). The debug list shows the receiver's answers: lectern webhooks notifications ${webhook.projectId} ${webhook.id} --filter failing\n`,
      };
    case 'gave_up':
      return {
        subject: `Webhook "${webhook.name}": a notification was given up after 3 days`,
        text: `${about}:\n\nA notification failed for 3 days and was removed from the queue; no further attempts will be made for it. Reset the webhook to send the last failed notification again.\n`,
      };
    case 'recovered':
      return {
        subject: `Webhook "${webhook.name}" works again`,
        text: `${about}:\n\nA notification was delivered after earlier failures; the webhook is working again.\n`,
      };
  }
}

/** How long before a management key expires its notice goes out (SPEC 3.2). */
export const keyExpiryNoticeMs = 5 * 24 * 3_600_000;

/**
 * Sends the SPEC 3.2 notice for every management key expiring within 5 days whose notice no one
 * has sent: claimed in the store first, so of several workers one sends each. Returns how many.
 */
export async function sendKeyExpiryNotices(options: { store: Store; mail: MailSender; now: Date }): Promise<number> {
  const { store, now } = options;
  const keys = await store.transaction((tx) =>
    tx.notices.claimKeyExpiryNotices({ now, until: new Date(now.getTime() + keyExpiryNoticeMs) }),
  );
  for (const key of keys) {
    const to = await projectApiManagers(store, key.projectId);
    if (to.length === 0) continue;
    await options.mail({
      to,
      subject: `A management API key of project ${key.projectId} expires on ${key.expiresAt.toISOString().slice(0, 10)}`,
      text:
        `The management API key ${key.keyId} of project ${key.projectId} expires at ${key.expiresAt.toISOString()}. ` +
        `Requests with it will then be refused (401, error_code 8). Regenerate it before then: lectern keys regenerate ${key.keyId}\n`,
    });
  }
  return keys.length;
}
