import { Router, type Request, type Response } from 'express';
import { signInWithIdentity, type CoreDeps } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { Logger } from '@lectern/http-kit';
import { locals } from '../../context.ts';
import { publicOriginOf } from '../../public-origin.ts';
import { setHttpOnlyCookie } from '../../web-session/cookies.ts';
import { appSessionCookie } from '../person-auth.ts';
import type { SignInOptionsJson } from '../wire.ts';
import { recordSignIn, type SignInEvent, type SignInRecorder } from './sign-in-events.ts';
import { queryOf, takePending, writePending } from './pending-cookie.ts';
import type { SsoClient } from './sso-client.ts';

export interface SsoRoutesOptions {
  readonly core: CoreDeps;
  readonly logger: Logger;
  /** The provider's client (discovered at start); null: single sign-on is off. */
  readonly sso?: SsoClient | null;
  /** LECTERN_PASSWORD_SIGN_IN: false when people sign in only through single sign-on. */
  readonly isPasswordSignInEnabled?: boolean;
  readonly signInRecorder?: SignInRecorder | null;
}

const pendingPath = '/app/api/sso';
const callbackPath = '/app/api/sso/callback';

/** A path inside the app (as the sign-in screen's `next`), or `/`. */
function appPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/';
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : '/';
}

/**
 * `/app/api` routes of single sign-on (docs/sso.md): what the sign-in screen offers, the start of
 * an OpenID Connect sign-in (a redirect to the provider) and its callback, which ends in the same
 * session cookie as a password sign-in and sends the browser into the app — or back to the
 * sign-in screen with `?sso_error=<code>` when refused.
 */
export function ssoRouter(options: SsoRoutesOptions): Router {
  const { core, logger } = options;
  const sso = options.sso ?? null;
  const router = Router();
  const record = (
    req: Request,
    res: Response,
    event: Omit<SignInEvent, 'requestId' | 'clientAddress' | 'at' | 'method' | 'surface'>,
  ) =>
    recordSignIn(
      options.signInRecorder,
      {
        ...event,
        method: 'oidc',
        surface: 'editor',
        requestId: locals(res).requestId ?? null,
        clientAddress: req.ip ?? null,
        at: core.clock.now(),
      },
      (error) => logger.error({ err: error }, 'recording a sign-in failed'),
    );

  router.get('/sign-in-options', (_req, res) => {
    res.json({
      password: options.isPasswordSignInEnabled ?? true,
      sso: sso === null ? null : { provider_name: sso.providerName, start_url: `${pendingPath}/start` },
    } satisfies SignInOptionsJson);
  });

  router.get('/sso/start', async (req, res) => {
    if (sso === null) throw new LecternError('SSO_NOT_CONFIGURED');
    const redirectUri = `${publicOriginOf(req)}${callbackPath}`;
    const { url, pending } = await sso.start({ redirectUri });
    writePending(req, res, pendingPath, { ...pending, next: appPath(req.query['next']) });
    res.redirect(303, url);
  });

  router.get('/sso/callback', async (req, res) => {
    if (sso === null) throw new LecternError('SSO_NOT_CONFIGURED');
    // One use: whatever happens next, this browser's sign-in in progress ends here.
    const pending = takePending(req, res, pendingPath);
    const query = queryOf(req);
    let email: string | null = null;
    try {
      if (pending === null) throw new LecternError('SSO_STATE_INVALID');
      const { identity } = await sso.finish({ query, pending });
      email = typeof identity.email === 'string' ? identity.email.slice(0, 320) : null;
      const started = await signInWithIdentity(core, identity);
      setHttpOnlyCookie(req, res, { path: '/app', name: appSessionCookie, value: started.token });
      record(req, res, {
        outcome: 'signed_in',
        userId: started.user.id,
        email: started.user.email,
        reason: null,
        isNewUser: started.isNewUser,
      });
      res.redirect(303, `/app${pending.next}`);
    } catch (error) {
      if (!(error instanceof LecternError)) throw error;
      if (error.code === 'SSO_PROVIDER_REFUSED') logger.warn({ err: error.cause }, 'single sign-on refused');
      record(req, res, { outcome: 'refused', userId: null, email, reason: error.code, isNewUser: false });
      res.redirect(303, `/app/sign-in?sso_error=${encodeURIComponent(error.code)}`);
    }
  });
  return router;
}
