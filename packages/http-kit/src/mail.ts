import type { Transporter } from 'nodemailer';

/** Sends one plain-text e-mail. */
export type MailSender = (mail: { to: readonly string[]; subject: string; text: string }) => Promise<void>;

/**
 * An SMTP sender (nodemailer) for `smtp://` or `smtps://` URLs (LECTERN_SMTP_URL), with user and
 * password in the URL when needed. Shared by the services that send e-mail: webhooks (failure
 * notices, key expiry) and management (people's password reset links).
 */
export function createSmtpSender(options: { url: string; from: string }): MailSender {
  // nodemailer (about 5 MiB of heap) loads with the first e-mail: most servers never send one.
  let transport: Promise<Transporter> | null = null;
  return async (mail) => {
    transport ??= import('nodemailer').then(({ createTransport }) => createTransport(options.url));
    await (await transport).sendMail({ from: options.from, to: [...mail.to], subject: mail.subject, text: mail.text });
  };
}
