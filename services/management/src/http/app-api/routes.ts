import { Router } from 'express';
import { appSessionRouter, type AppSessionOptions } from './session-routes.ts';
import { ssoRouter, type SsoRoutesOptions } from './sso/sso-routes.ts';

export { requirePersonSession, appSessionCookie, csrfHeader } from './person-auth.ts';
export type { SignInOptionsJson } from './wire.ts';
export { discoverSso, type SsoClient } from './sso/sso-client.ts';
export type { SignInEvent, SignInRecorder } from './sso/sign-in-events.ts';
export type { PersonLinkJson, SessionJson, SessionUserJson, SignedInJson, SignedOutEverywhereJson } from './wire.ts';
export { linkMailer, linkMailerOf, acceptUrl, type LinkMailer } from './links.ts';

/**
 * The editor's own API under `/app/api` (issue 28): sessions and links here; the Management API v2
 * routes (`/app/api/v2/projects/:projectId/…`) and the app's project routes
 * (`/app/api/projects/:projectId/…`) are mounted by `buildManagementApp` behind
 * `requirePersonSession`. Nothing here is cached, sniffed or framed.
 */
export function appApiRouter(options: AppSessionOptions & SsoRoutesOptions): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    next();
  });
  router.use(appSessionRouter(options));
  router.use(ssoRouter(options));
  return router;
}
