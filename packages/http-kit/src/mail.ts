import { createTransport } from 'nodemailer';

/** Sends one plain-text e-mail. */
export type MailSender = (mail: { to: readonly string[]; subject: string; text: string }) => Promise<void>;

/**
 * An SMTP sender (nodemailer) for `smtp://` or `smtps://` URLs (LECTERN_SMTP_URL), with user and
 * password in the URL when needed. Shared by the services that send e-mail: webhooks (failure
 * notices, key expiry) and management (people's password reset links).
 */
export function createSmtpSender(options: { url: string; from: string }): MailSender {
  const transport = createTransport(options.url);
  return async (mail) => {
    await transport.sendMail({ from: options.from, to: [...mail.to], subject: mail.subject, text: mail.text });
  };
}
