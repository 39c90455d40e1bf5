import type { MentionNotice } from '@lectern/core';
import type { Logger } from '@lectern/http-kit';

/** Sends one plain-text e-mail (the SMTP sender of LECTERN_SMTP_URL). */
export type SendText = (mail: { to: readonly string[]; subject: string; text: string }) => Promise<void>;

/** Where mention e-mails go out, and the app's public address their links point to. */
export interface MentionMailer {
  readonly publicUrl: string;
  readonly sendText: SendText;
}

/** The item's page in the editor app, in the comment's language. */
export function itemUrl(publicUrl: string, projectId: string, notice: MentionNotice): string {
  return `${publicUrl.replace(/\/+$/, '')}/app/p/${projectId}/${encodeURIComponent(notice.languageCodename)}/items/${notice.itemId}`;
}

/**
 * E-mails each person mentioned in a comment: who mentioned them, where, the comment's text and
 * a link to the item. Not awaited by the request: a failure is logged, the comment stands.
 */
export function sendMentionMails(
  mailer: MentionMailer | null,
  logger: Logger,
  input: { projectId: string; notices: readonly MentionNotice[] },
): void {
  if (mailer === null) return;
  for (const notice of input.notices) {
    const where = notice.elementName ? `${notice.itemName} (${notice.elementName})` : notice.itemName;
    mailer
      .sendText({
        to: [notice.to],
        subject: `${notice.authorEmail} mentioned you in a comment on ${notice.itemName}`,
        text:
          `${notice.authorEmail} mentioned you in a comment on ${where} in Lectern:\n\n` +
          `${notice.text.replace(/^/gm, '> ')}\n\n` +
          `Open the item to reply:\n${itemUrl(mailer.publicUrl, input.projectId, notice)}\n`,
      })
      .catch((error: unknown) => logger.error({ err: error }, 'comment mention e-mail failed'));
  }
}
