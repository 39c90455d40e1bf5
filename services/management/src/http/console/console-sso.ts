import type { Request, Response, Router } from 'express';
import { identityEmail } from '@lectern/core';
import { LecternError, catalogue, type ErrorCode } from '@lectern/errors';
import { locals } from '../context.ts';
import { publicOriginOf } from '../public-origin.ts';
import { queryOf, takePending, writePending } from '../app-api/sso/pending-cookie.ts';
import { recordSignIn } from '../app-api/sso/sign-in-events.ts';
import type { ConsoleOptions } from './request-state.ts';
import { sessionCookie, setCookie, type SessionStore } from './session.ts';

/*
 * Operators sign in to the console through single sign-on (docs/sso.md) when
 * LECTERN_OIDC_OPERATOR_VALUE is set: the same OpenID Connect flow as the editor's (PKCE, state,
 * nonce, a verified e-mail), with its own callback `<public origin>/console/sso/callback`, and a
 * console session for a person whose role claim holds that value. Nothing is stored: the console's
 * sessions live in this process, as the operator token's.
 */

const pendingPath = '/console/sso';
const ssoCodes = new Set<string>([
  'SSO_STATE_INVALID',
  'SSO_PROVIDER_REFUSED',
  'SSO_EMAIL_MISSING',
  'SSO_EMAIL_NOT_VERIFIED',
  'SSO_NOT_OPERATOR',
]);

/** The sentence for a refused console sign-in (`?sso_error=<code>` of the sign-in page), or undefined. */
export function consoleSsoProblem(req: Request): string | undefined {
  const code = req.query['sso_error'];
  return typeof code === 'string' && ssoCodes.has(code) ? catalogue[code as ErrorCode].message : undefined;
}

/** Adds `GET /sso/start` and `GET /sso/callback` to the console's router (before its sign-in gate). */
export function mountConsoleSso(router: Router, options: ConsoleOptions, sessions: SessionStore): void {
  const sso = options.sso ?? null;
  if (sso === null || !sso.hasOperators) return;
  router.get('/sso/start', async (req, res) => {
    const { url, pending } = await sso.start({ redirectUri: `${publicOriginOf(req)}${pendingPath}/callback` });
    writePending(req, res, pendingPath, { ...pending, next: '/console/projects' });
    res.redirect(303, url);
  });
  router.get('/sso/callback', async (req: Request, res: Response) => {
    const pending = takePending(req, res, pendingPath);
    let email: string | null = null;
    try {
      if (pending === null) throw new LecternError('SSO_STATE_INVALID');
      const answer = await sso.finish({ query: queryOf(req), pending });
      email = identityEmail(answer.identity.email);
      if (email === null) throw new LecternError('SSO_EMAIL_MISSING');
      if (!answer.identity.isEmailVerified) throw new LecternError('SSO_EMAIL_NOT_VERIFIED');
      if (!answer.isOperator) throw new LecternError('SSO_NOT_OPERATOR');
      const session = sessions.start({ type: 'sso_operator', email });
      setCookie(req, res, sessionCookie, session.id);
      record(req, res, { outcome: 'signed_in', email, reason: null });
      res.redirect(303, pending.next);
    } catch (error) {
      if (!(error instanceof LecternError)) throw error;
      if (error.code === 'SSO_PROVIDER_REFUSED')
        options.logger.warn({ err: error.cause }, 'console single sign-on refused');
      record(req, res, { outcome: 'refused', email, reason: error.code });
      res.redirect(303, `/console/sign-in?sso_error=${encodeURIComponent(error.code)}`);
    }
  });

  function record(
    req: Request,
    res: Response,
    event: { outcome: 'signed_in' | 'refused'; email: string | null; reason: string | null },
  ): void {
    recordSignIn(
      options.signInRecorder,
      {
        ...event,
        method: 'oidc',
        surface: 'console',
        userId: null,
        isNewUser: false,
        requestId: locals(res).requestId ?? null,
        clientAddress: req.ip ?? null,
        at: new Date(),
      },
      (err) => options.logger.error({ err }, 'recording a sign-in failed'),
    );
  }
}
