import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { authenticateKeyOfAnyProject, recordSignIn, type Actor } from '@lectern/core';
import { LecternError, toManagementError } from '@lectern/errors';
import type { Logger } from '@lectern/http-kit';
import { locals } from '../context.ts';
import { bodyGuard } from '../input-guard.ts';
import { serveAssets } from './assets.ts';
import { html } from './html.ts';
import { page, type AssetUrls, type PageContext } from './layout.ts';
import { consoleState, field, type ConsoleOptions, type ConsoleRequestState } from './request-state.ts';
import { projectRoutes } from './project-routes.ts';
import { signInPage } from './projects-pages.ts';
import {
  createSessionStore,
  digest,
  randomToken,
  readCookie,
  sameSecret,
  sessionCookie,
  setCookie,
  signInCookie,
} from './session.ts';
import { clientKey, createSignInThrottle } from '../web-session/sign-in-throttle.ts';
import { isPublicUrlHttps } from '../public-origin.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { consoleSsoProblem, mountConsoleSso } from './console-sso.ts';

/** No inline script or style, nothing from elsewhere, no framing. */
export const consoleCsp =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The operator web console (issue 18) under `/console`: server-rendered pages over the same core
 * operations as the Management and admin APIs, signed in with the operator token or a project's
 * management key.
 */
export function consoleRouter(options: ConsoleOptions): Router {
  const router = Router();
  const sessions = createSessionStore(options.core, options.operatorToken);
  const throttle = createSignInThrottle(options.signInThrottle);
  let hasWarnedInsecureProxy = false;
  router.use((req, res, next) => {
    // Behind a TLS proxy that is not trusted, cookies would go without Secure: say so, once.
    if (
      !hasWarnedInsecureProxy &&
      !req.secure &&
      !isPublicUrlHttps(req) &&
      /^https\b/i.test(req.get('x-forwarded-proto') ?? '')
    ) {
      hasWarnedInsecureProxy = true;
      options.logger.warn(
        { peer: req.socket.remoteAddress },
        'Console cookies are sent without Secure: this request came with X-Forwarded-Proto: https from a peer that is not a trusted proxy. Set LECTERN_MANAGEMENT_PUBLIC_URL=https://… (cookies are then always Secure) or list the proxy in LECTERN_TRUSTED_PROXIES.',
      );
    }
    res.set({
      'content-security-policy': consoleCsp,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
    });
    next();
  });
  const assets: AssetUrls = serveAssets(router);
  router.use(express.urlencoded({ extended: false, limit: 65_536, parameterLimit: 200 }));
  router.use(bodyGuard);
  const bare: PageContext = { assets, csrf: null, projectScope: null };

  const showSignIn = (req: Request, res: Response, status: number, error?: string) => {
    const csrf = randomToken();
    setCookie(req, res, signInCookie, csrf);
    res
      .status(status)
      .type('html')
      .send(signInPage(bare, { csrf, ...(error === undefined ? {} : { error }), ...ssoButton }).value);
  };
  const ssoButton = options.sso?.hasOperators ? { ssoProviderName: options.sso.providerName } : {};
  router.get('/sign-in', (req, res) => showSignIn(req, res, 200, consoleSsoProblem(req)));
  mountConsoleSso(router, options, sessions);
  router.post('/sign-in', async (req, res) => {
    const expected = readCookie(req, signInCookie);
    const presentedCsrf = field(req, '_csrf');
    if (expected === null || presentedCsrf === undefined || !sameSecret(expected, presentedCsrf)) {
      return showSignIn(req, res, 403, 'The sign-in form expired. Please try again.');
    }
    // Throttled per client before the token is looked at: a locked client cannot guess on, rightly or not.
    const client = [clientKey(req.ip)];
    const retryAfter = throttle.retryAfterSeconds(client);
    if (retryAfter > 0) {
      res.set('retry-after', String(retryAfter));
      return showSignIn(
        req,
        res,
        429,
        `Too many failed sign-ins from your address. Try again in ${retryAfter} seconds.`,
      );
    }
    // Counted as failed before the (asynchronous) key lookup, so a burst of parallel guesses meets
    // the lock too; a success clears the count.
    throttle.fail(client);
    const token = (field(req, 'token') ?? '').trim();
    let credential: Parameters<typeof sessions.start>[0] | null = null;
    let keyActor: (Actor & { type: 'api_key' }) | null = null;
    if (token !== '' && options.operatorToken !== null && sameSecret(token, options.operatorToken)) {
      credential = { type: 'operator', tokenDigest: digest(token) };
    } else if (token !== '') {
      const actor = await authenticateKeyOfAnyProject(options.core, {
        api: 'management',
        authorization: `Bearer ${token}`,
      }).catch((error: unknown) => {
        if (error instanceof LecternError) return null;
        throw error;
      });
      if (actor?.type === 'api_key') {
        credential = { type: 'key', key: token, projectId: actor.projectId };
        keyActor = actor;
      }
    }
    // The console's sign-ins in the audit log (issue 31); never the token itself.
    await recordSignIn(options.core, {
      method: credential?.type === 'key' ? 'management_key' : 'operator_token',
      isSuccess: credential !== null,
      userId: keyActor?.userId ?? null,
      keyId: keyActor?.keyId ?? null,
      email: null,
      projectId: keyActor?.projectId ?? null,
      ...(credential === null ? { reason: token === '' ? 'no_token' : 'unknown_token' } : {}),
    });
    if (credential === null) {
      return showSignIn(req, res, 401, 'That is neither the operator token nor a valid management API key.');
    }
    throttle.succeed(client);
    const session = sessions.start(credential);
    setCookie(req, res, signInCookie, '', 0);
    setCookie(req, res, sessionCookie, session.id);
    res.redirect(303, credential.type === 'key' ? `/console/projects/${credential.projectId}` : '/console/projects');
  });

  router.use(async (req, res, next) => {
    const signedIn = await sessions.resolve(req);
    if (signedIn === null) {
      if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(303, '/console/sign-in');
      return showSignIn(req, res, 401, 'Your session ended. Please sign in again.');
    }
    // Every change carries the session's CSRF token (SameSite=Strict is the second line).
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const presented = field(req, '_csrf');
      if (presented === undefined || !sameSecret(presented, signedIn.session.csrf)) {
        throw new LecternError('PROJECT_ACCESS_DENIED', {
          message: 'The form is missing its security token or it is stale. Reload the page and try again.',
        });
      }
    }
    const ctx: PageContext = { assets, csrf: signedIn.session.csrf, projectScope: signedIn.projectId };
    res.locals['console'] = { signedIn, ctx } satisfies ConsoleRequestState;
    next();
  });
  router.post('/sign-out', (req, res) => {
    sessions.end(consoleState(res).signedIn.session.id);
    setCookie(req, res, sessionCookie, '', 0);
    res.redirect(303, '/console/sign-in');
  });
  router.get(['/', ''], (_req, res) => {
    const scope = consoleState(res).signedIn.projectId;
    res.redirect(303, scope === null ? '/console/projects' : `/console/projects/${scope}`);
  });
  router.use(projectRoutes(options));
  router.use(webhookRoutes(options));
  router.use((_req, _res, next) => next(new LecternError('ROUTE_NOT_FOUND')));
  router.use(consoleErrors(options.logger, bare));
  return router;
}

/** Errors as a page: the catalogue's status and message, and each problem, all as text. */
function consoleErrors(logger: Logger, bare: PageContext) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const requestId = locals(res).requestId;
    const status = (error as { status?: unknown } | null)?.status;
    // A body the parser refused (too large, malformed) is the sender's mistake.
    const mapped =
      typeof status === 'number' && status >= 400 && status < 500 && !(error instanceof LecternError)
        ? new LecternError(status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_REQUEST_BODY')
        : error;
    const isKnown = mapped instanceof LecternError;
    const response = toManagementError(isKnown ? mapped : new LecternError('INTERNAL'), requestId);
    if (!isKnown) logger.error({ err: error, requestId }, 'console request failed');
    const ctx = (res.locals['console'] as ConsoleRequestState | undefined)?.ctx ?? bare;
    const problems = isKnown ? mapped.problems : [];
    const body = html`<div class="notice error" role="alert">
        <p>${response.body.message}</p>
        ${
          problems.length === 0
            ? ''
            : html`<ul>
                ${problems.map((p) => html`<li>${p.path ? html`<code>${p.path}</code>: ` : ''}${p.message}</li>`)}
              </ul>`
        }
      </div>
      <p><a href="/console">Console home</a></p>
      <p class="muted small">Request id <code>${requestId}</code></p>`;
    res
      .status(response.status)
      .type('html')
      .send(page(ctx, { title: 'That did not work', body }).value);
  };
}
