/*
 * Where one-time links point: `<management public URL>/app/accept#<token>`. The token is in the
 * fragment, which browsers never send to a server nor put in a Referer.
 */

export function acceptUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/app/accept#${token}`;
}

/** Sends a password reset link by e-mail. */
export interface PasswordResetMailer {
  /**
   * The public URL of the Management service (LECTERN_MANAGEMENT_PUBLIC_URL): links in e-mails
   * never take their host from a request, which anyone can forge.
   */
  readonly publicUrl: string;
  send(mail: { to: string; url: string; expiresAt: Date }): Promise<void>;
}

/** A mailer over a plain-text sender (such as an SMTP sender). */
export function passwordResetMailer(options: {
  publicUrl: string;
  sendText: (mail: { to: readonly string[]; subject: string; text: string }) => Promise<void>;
}): PasswordResetMailer {
  return {
    publicUrl: options.publicUrl,
    send: (mail) =>
      options.sendText({
        to: [mail.to],
        subject: 'Reset your Lectern password',
        text:
          `Someone (hopefully you) asked to reset the password of ${mail.to} in Lectern.\n\n` +
          `Choose a new password here (the link works once, until ${mail.expiresAt.toISOString()}):\n${mail.url}\n\n` +
          'If you did not ask for this, ignore this e-mail; your password stays as it is.\n',
      }),
  };
}
