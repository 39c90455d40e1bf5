import { createSmtpSender, type Logger } from '@lectern/http-kit';
import type { PersonLinkPurpose } from '@lectern/core';

/*
 * Where one-time links point: `<management public URL>/app/accept#<token>`. The token is in the
 * fragment, which browsers never send to a server nor put in a Referer.
 */

export function acceptUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/app/accept#${token}`;
}

/** Sends people their one-time links by e-mail: invitations and password resets. */
export interface LinkMailer {
  /**
   * The public URL of the Management service (LECTERN_MANAGEMENT_PUBLIC_URL): links in e-mails
   * never take their host from a request, which anyone can forge.
   */
  readonly publicUrl: string;
  /** Any other plain-text e-mail through the same sender (comment mentions); absent: none is sent. */
  readonly sendText?: (mail: { to: readonly string[]; subject: string; text: string }) => Promise<void>;
  send(mail: {
    to: string;
    purpose: PersonLinkPurpose;
    url: string;
    expiresAt: Date;
    projectName?: string | undefined;
  }): Promise<void>;
}

/** A mailer over a plain-text sender (such as an SMTP sender). */
export function linkMailer(options: {
  publicUrl: string;
  sendText: (mail: { to: readonly string[]; subject: string; text: string }) => Promise<void>;
}): LinkMailer {
  return {
    publicUrl: options.publicUrl,
    sendText: options.sendText,
    send: (mail) =>
      options.sendText(
        mail.purpose === 'invite'
          ? {
              to: [mail.to],
              subject: `You are invited to ${mail.projectName ?? 'a project'} in Lectern`,
              text:
                `You have been invited to ${mail.projectName ?? 'a project'} in Lectern as ${mail.to}.\n\n` +
                `Choose your password here (the link works once, until ${mail.expiresAt.toISOString()}):\n${mail.url}\n`,
            }
          : {
              to: [mail.to],
              subject: 'Reset your Lectern password',
              text:
                `Someone (hopefully you) asked to reset the password of ${mail.to} in Lectern.\n\n` +
                `Choose a new password here (the link works once, until ${mail.expiresAt.toISOString()}):\n${mail.url}\n\n` +
                'If you did not ask for this, ignore this e-mail; your password stays as it is.\n',
            },
      ),
  };
}

/**
 * The link mailer of a server's settings: null without LECTERN_SMTP_URL, and null (with a
 * warning) without LECTERN_MANAGEMENT_PUBLIC_URL, since a link's host must not come from a request.
 */
export function linkMailerOf(
  settings: { smtpUrl?: string | undefined; smtpFrom: string; managementPublicUrl?: string | undefined },
  logger: Logger,
): LinkMailer | null {
  if (settings.smtpUrl === undefined) return null;
  if (settings.managementPublicUrl === undefined) {
    logger.warn(
      'LECTERN_SMTP_URL is set but LECTERN_MANAGEMENT_PUBLIC_URL is not: invitation and password reset links are not e-mailed (their address would come from the request). Set the public URL, or hand out links with lectern users invite / reset-link.',
    );
    return null;
  }
  return linkMailer({
    publicUrl: settings.managementPublicUrl,
    sendText: createSmtpSender({ url: settings.smtpUrl, from: settings.smtpFrom }),
  });
}
