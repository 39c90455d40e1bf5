import { Router, type Request, type Response } from 'express';
import {
  acceptPersonLink,
  describePersonLink,
  listPersonProjects,
  readPersonSession,
  requestPasswordReset,
  signInPerson,
  signOutEverywhere,
  signOutPerson,
  type CoreDeps,
  type PersonSessionState,
  type StartedSession,
} from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { Logger } from '@lectern/http-kit';
import { readCookie, sameSecret, setHttpOnlyCookie } from '../web-session/cookies.ts';
import { clientKey, createSignInThrottle, type SignInThrottleOptions } from '../web-session/sign-in-throttle.ts';
import { appSessionCookie, csrfHeader } from './person-auth.ts';
import { acceptUrl, type LinkMailer } from './links.ts';
import { recordPasswordSignIn } from './sso/password-sign-in-events.ts';
import type { SignInRecorder } from './sso/sign-in-events.ts';
import type { PersonLinkJson, SessionJson, SignedInJson, SignedOutEverywhereJson } from './wire.ts';

export interface AppSessionOptions {
  readonly core: CoreDeps;
  readonly logger: Logger;
  /** Failed sign-ins allowed per client before a lock, and the lock times (defaults: sign-in-throttle.ts). */
  readonly signInThrottle?: SignInThrottleOptions;
  /** Sends reset links by e-mail (LECTERN_SMTP_URL); null: reset links come from the operator's CLI. */
  readonly mailer?: LinkMailer | null;
  /** LECTERN_PASSWORD_SIGN_IN: false refuses `POST /session` (single sign-on only, docs/sso.md). */
  readonly isPasswordSignInEnabled?: boolean;
  /** Where sign-ins and refused sign-ins go (the audit log's seam, sso/sign-in-events.ts). */
  readonly signInRecorder?: SignInRecorder | null;
}

const body = (req: Request): Record<string, unknown> =>
  typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)
    ? (req.body as Record<string, unknown>)
    : {};

function signedIn(req: Request, res: Response, started: StartedSession): void {
  setHttpOnlyCookie(req, res, { path: '/app', name: appSessionCookie, value: started.token });
  res.json({ user: started.user, csrf_token: started.csrfToken } satisfies SignedInJson);
}

function clearCookie(req: Request, res: Response): void {
  setHttpOnlyCookie(req, res, { path: '/app', name: appSessionCookie, value: '', maxAgeSeconds: 0 });
}

/** The live session of the request with its CSRF token checked (it changes something): 401 / 403 otherwise. */
async function sessionForChange(core: CoreDeps, req: Request): Promise<PersonSessionState> {
  const session = await readPersonSession(core, readCookie(req, appSessionCookie));
  if (!session) throw new LecternError('SESSION_REQUIRED');
  const presented = req.get(csrfHeader);
  if (presented === undefined || !sameSecret(presented, session.csrfToken))
    throw new LecternError('CSRF_TOKEN_INVALID');
  return session;
}

/**
 * `/app/api` routes of people's sessions (docs/people.md): sign-in by e-mail and password
 * (throttled per client as the console's), the session and its projects, sign-out (here and
 * everywhere), one-time links (invite, reset) and the request of a reset link by e-mail.
 */
export function appSessionRouter(options: AppSessionOptions): Router {
  const { core } = options;
  const router = Router();
  const throttle = createSignInThrottle(options.signInThrottle);
  // Requests for reset e-mails, per client: at most 5 a minute (no one floods a mailbox through us).
  const resetThrottle = createSignInThrottle({ ...options.signInThrottle, maxFailures: 5 });

  router
    .route('/session')
    .post(async (req, res) => {
      if (options.isPasswordSignInEnabled === false) throw new LecternError('PASSWORD_SIGN_IN_DISABLED');
      const client = [clientKey(req.ip)];
      const retryAfter = throttle.retryAfterSeconds(client);
      if (retryAfter > 0)
        throw new LecternError('RATE_LIMITED', {
          retryAfterSeconds: retryAfter,
          message: `Too many failed sign-ins from your address. Try again in ${retryAfter} seconds.`,
        });
      // Counted before the (slow) password check, so parallel guesses meet the lock too.
      throttle.fail(client);
      const started = await signInPerson(core, { email: body(req)['email'], password: body(req)['password'] }).catch(
        (error: unknown) => {
          recordPasswordSignIn(options, req, res, { error });
          throw error;
        },
      );
      throttle.succeed(client);
      recordPasswordSignIn(options, req, res, { userId: started.user.id });
      signedIn(req, res, started);
    })
    .get(async (req, res) => {
      const session = await readPersonSession(core, readCookie(req, appSessionCookie));
      if (!session) throw new LecternError('SESSION_REQUIRED');
      const projects = await listPersonProjects(core, { userId: session.user.id });
      res.json({ user: session.user, csrf_token: session.csrfToken, projects } satisfies SessionJson);
    })
    .delete(async (req, res) => {
      await sessionForChange(core, req);
      await signOutPerson(core, readCookie(req, appSessionCookie));
      clearCookie(req, res);
      res.status(204).end();
    });

  router.post('/session/sign-out-everywhere', async (req, res) => {
    const session = await sessionForChange(core, req);
    const ended = await signOutEverywhere(core, { userId: session.user.id });
    clearCookie(req, res);
    res.json({ ended_sessions: ended } satisfies SignedOutEverywhereJson);
  });

  router
    .route('/links/:token')
    .get(async (req, res) => {
      // The accept screen then says why and points to the sign-in screen (single sign-on).
      if (options.isPasswordSignInEnabled === false) throw new LecternError('PASSWORD_SIGN_IN_DISABLED');
      const link = await describePersonLink(core, { token: req.params.token });
      res.json({ email: link.email, purpose: link.purpose, project_name: link.projectName } satisfies PersonLinkJson);
    })
    .post(async (req, res) => {
      // No password is set (nor a session started by one) when people sign in only through SSO.
      if (options.isPasswordSignInEnabled === false) throw new LecternError('PASSWORD_SIGN_IN_DISABLED');
      signedIn(req, res, await acceptPersonLink(core, { token: req.params.token, password: body(req)['password'] }));
    });

  router.post('/password-reset', async (req, res) => {
    if (options.isPasswordSignInEnabled === false) throw new LecternError('PASSWORD_SIGN_IN_DISABLED');
    const client = [clientKey(req.ip)];
    const retryAfter = resetThrottle.retryAfterSeconds(client);
    if (retryAfter > 0) throw new LecternError('RATE_LIMITED', { retryAfterSeconds: retryAfter });
    resetThrottle.fail(client);
    const mailer = options.mailer ?? null;
    // Without e-mail nothing is issued: the operator hands out links (lectern users reset-link).
    const link = mailer === null ? null : await requestPasswordReset(core, { email: body(req)['email'] });
    if (mailer !== null && link !== null) {
      // Not awaited: the answer must not tell, by its timing, whether an e-mail went out.
      mailer
        .send({
          to: link.email,
          purpose: 'reset',
          url: acceptUrl(mailer.publicUrl, link.token),
          expiresAt: link.expiresAt,
        })
        .catch((error: unknown) => options.logger.error({ err: error }, 'password reset e-mail failed'));
    }
    res.status(202).json({});
  });
  return router;
}
