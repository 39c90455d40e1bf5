import { issuePersonLink, type Actor, type CoreDeps } from '@lectern/core';
import type { Logger } from '@lectern/http-kit';
import { acceptUrl, type LinkMailer } from './links.ts';

/**
 * After an invitation through the Management API (`POST /users`, by a project manager's key or
 * session): issues the person's invitation link (as the inviter, who may manage the environment)
 * and e-mails it. The e-mail is not awaited; its failure is logged, the invitation stands (the
 * operator can hand out a link with `lectern users reset-link`).
 */
export function emailInvitations(core: CoreDeps, mailer: LinkMailer, logger: Logger) {
  return async (invited: { actor: Actor; projectId: string; email: string }): Promise<void> => {
    const link = await issuePersonLink(core, { ...invited, purpose: 'invite' });
    mailer
      .send({
        to: link.email,
        purpose: 'invite',
        url: acceptUrl(mailer.publicUrl, link.token),
        expiresAt: link.expiresAt,
        projectName: link.projectName,
      })
      .catch((error: unknown) => logger.error({ err: error }, 'invitation e-mail failed'));
  };
}
