import { createServer, type Server } from 'node:http';
import express, { type Express, type RequestHandler, type Router } from 'express';
import { toManagementError } from '@lectern/errors';
import { answerClientErrorsOf, jsonNestingProblem, parserMaxHeaderBytes, type Readiness } from '@lectern/http-kit';
import { adminRouter } from './http/admin/routes.ts';
import { requireManagementKey } from './http/auth.ts';
import { consoleRouter } from './http/console/routes.ts';
import { editorAppRouter, editorHome } from './http/editor-app/routes.ts';
import { appApiRouter, requirePersonSession, type LinkMailer } from './http/app-api/routes.ts';
import type { SignInRecorder, SsoClient } from './http/app-api/routes.ts';
import { emailInvitations } from './http/app-api/invitations.ts';
import type { SignInThrottleOptions } from './http/web-session/sign-in-throttle.ts';
import { addProbeRoutes } from './http/probes.ts';
import { requestContext, type ManagementDeps } from './http/context.ts';
import { environmentRouter } from './http/environment/routes.ts';
import { errorHandler, notFound } from './http/errors.ts';
import { bodyGuard, bodySizeGuard, urlGuard } from './http/input-guard.ts';
import { itemsRouter } from './http/items/routes.ts';
import { routeByFirstSegment } from './http/route-by-segment.ts';
import { variantsRouter } from './http/variants/routes.ts';
import { variantVersionsRouter } from './http/variants/version-routes.ts';
import { assetsRouter } from './http/assets/routes.ts';
import { filesRouter, isFileUpload } from './http/files/routes.ts';
import { binaryFilesRedirectRouter } from './http/files/binary-routes.ts';
import { foldersRouter } from './http/folders/routes.ts';
import { v1ItemsRouter } from './http/v1/items-routes.ts';
import { v1AssetsRouter } from './http/v1/assets-routes.ts';
import type { BlobStore, CoreDeps, DeliveryIndexReader, RecsTracking } from '@lectern/core';
import { languagesRouter } from './http/languages/routes.ts';
import { contentTypesRouter } from './http/content-types/routes.ts';
import { snippetsRouter } from './http/snippets/routes.ts';
import { taxonomiesRouter } from './http/taxonomies/routes.ts';
import { collectionsRouter } from './http/collections/routes.ts';
import { workflowsRouter } from './http/workflows/routes.ts';
import { spacesRouter } from './http/spaces/routes.ts';
import { settingsRouter } from './http/settings/routes.ts';
import { customAppsRouter } from './http/settings/custom-apps-routes.ts';
import { webhooksRouter } from './http/webhooks/routes.ts';
import { itemsWithVariantRouter } from './http/variants/items-with-variant-routes.ts';
import { validateRouter } from './http/environment/validate-routes.ts';
import { cloneRouter } from './http/environment/clone-routes.ts';
import { projectUsersRouter, subscriptionsRouter } from './http/users/routes.ts';
import { renditionsRouter } from './http/assets/renditions-routes.ts';
import { defaultRateLimits, rateLimit, scaledRateLimits, type RateLimits } from './http/rate-limit.ts';
import { configurePublicOrigin } from './http/public-origin.ts';
import { configureAssetsOrigin, type AssetsOriginOptions } from './http/assets-origin.ts';
import type { ChangeHub } from './changes/change-hub.ts';
import { changesRouter } from './http/app-api/changes-routes.ts';
import { commentsRouter } from './http/comments/routes.ts';
import { presenceRouter } from './http/app-api/presence-routes.ts';
import { createPresenceHub, type PresenceHub } from './presence/presence-hub.ts';
import { appModelImpactRouter } from './http/app-api/model-impact-routes.ts';
import { appUsersRouter } from './http/app-api/users-routes.ts';
import { mcpRouter } from './mcp/mcp-routes.ts';
import { adminAuditRouter, auditLogRouter } from './http/audit/routes.ts';
import { auditScope } from './http/audit/audit-scope.ts';
import { auditSignInRecorder } from './http/audit/sign-in-recorder.ts';
import type { RemoteFetchOptions } from './mcp/remote-file.ts';

export interface ManagementAppOptions extends ManagementDeps {
  readonly readiness: Readiness;
  /** Token of the admin API; null disables it (every admin call then answers 401). */
  readonly operatorToken: string | null;
  /** Where asset binaries are stored; null: file uploads answer 503. */
  readonly blobs?: BlobStore | null;
  /** Largest binary file upload in bytes (default 100 MiB). */
  readonly maxFileBytes?: number;
  /** Management API limits per key (default: SPEC 8). */
  readonly rateLimits?: RateLimits;
  /**
   * Limits per person signed in to the editor (default: five times the key's in each window). The
   * app opens an item with a dozen reads at once, more than a key's 10 a second allows.
   */
  readonly personRateLimits?: RateLimits;
  /** Largest JSON body accepted, in bytes. */
  readonly jsonLimitBytes?: number;
  /** PUT /assets/{id} may leave out `file_reference` (the Kontent.ai reference); default: required (SPEC 4.2). */
  readonly isAssetFileOptionalOnUpdate?: boolean;
  /** Peers whose X-Forwarded-Proto / X-Forwarded-Host are believed (IPs, CIDRs, `loopback`…); default none. */
  readonly trustedProxies?: readonly string[];
  /** The URL clients reach this API at (e.g. https://manage.example.com); asset and paging URLs use it. */
  readonly publicUrl?: string | null;
  /**
   * Where asset binaries are served (`buildAssetsApp`, their own origin): asset `url`s point there
   * and `GET /assets/…` on this app redirects there. Unset: asset `url`s name this origin, where
   * binaries are not served (404) — for apps that never read binaries.
   */
  readonly assetsOrigin?: AssetsOriginOptions;
  /**
   * The background task runner of this process, woken when a request queues a task
   * (validate-async, clone-environment); without one, the tasks wait for another process's runner.
   */
  readonly tasks?: { wake(): void } | null;
  /**
   * The project change events of this process (attached to the event bus by the main), for the
   * editor app's live changes (`changesRouter`); none: the stream stays silent.
   */
  readonly changes?: ChangeHub;
  /** Who has which item open in the editor (issue 31); absent: one made here (closed with nothing). */
  readonly presence?: PresenceHub;
  /** The recommendation engine's tracking settings, for `/admin/projects/{id}/recommendations`. */
  readonly recsTracking?: RecsTracking;
  /**
   * The editor app's build (`apps/editor/dist`, see `defaultEditorDir`), served at `/app/`;
   * absent or null: `/app/` answers a 503 page that says how to build it.
   */
  readonly editorDir?: string | null;
  /** E-mails people their invitation and password reset links (LECTERN_SMTP_URL); absent: only the CLI issues them. */
  readonly linkMailer?: LinkMailer | null;
  /** Single sign-on of the editor (OpenID Connect, docs/sso.md), discovered at start; absent: off. */
  readonly sso?: SsoClient | null;
  /** LECTERN_PASSWORD_SIGN_IN; false: people sign in only through `sso`. Default true. */
  readonly isPasswordSignInEnabled?: boolean;
  /**
   * Receives the editor's and the console's sign-ins and refused sign-ins; absent: the audit log's
   * recorder (`auditSignInRecorder`).
   */
  readonly signInRecorder?: SignInRecorder | null;
  /** Failed sign-ins (console and editor) allowed per client before a lock, and the lock times. */
  readonly signInThrottle?: SignInThrottleOptions;
  /** The Delivery index, for the MCP tool query-delivery (docs/mcp.md); absent: the tool is not offered. */
  readonly deliveryIndex?: DeliveryIndexReader | null;
  /** How the MCP asset upload fetches URLs (tests may allow private addresses); default: the SSRF guard on. */
  readonly mcpRemoteFetch?: RemoteFetchOptions;
}

/**
 * The Management API service: `/v2/projects/{id}/…` and `/v1/projects/{id}/…` behind a management
 * key, the same v2 routes and the editor's session routes under `/app/api` for people signed in
 * with a password, the editor app itself under `/app`, the operator admin API under `/admin`, the
 * console under `/console`, the MCP server under `/mcp`, and health and metrics. Asset binaries are not served here
 * (`buildAssetsApp`), only redirected to. Builds the
 * app only: it does not listen or read the environment.
 */
export function buildManagementApp(options: ManagementAppOptions): Express {
  const app = express();
  const signInRecorder = options.signInRecorder ?? auditSignInRecorder(options.core);
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  configurePublicOrigin(app, { trustedProxies: options.trustedProxies ?? [], publicUrl: options.publicUrl ?? null });
  configureAssetsOrigin(app, options.assetsOrigin ?? {});
  app.use(requestContext(options, 'management'));
  app.use(urlGuard);
  const jsonLimitBytes = options.jsonLimitBytes ?? 1_048_576;
  const json = express.json({
    limit: jsonLimitBytes,
    type: ['application/json', 'application/*+json'],
    // Nesting bounded in one pass over the bytes before JSON.parse, which is super-linear in it.
    verify: (_req, _res, bytes) => {
      const problem = jsonNestingProblem(bytes);
      if (problem) throw problem;
    },
  });
  const sizeGuard = bodySizeGuard(jsonLimitBytes);
  // A binary upload's body is the file, streamed by its route, whatever its Content-Type.
  app.use((req, res, next) => (isFileUpload(req) ? next() : sizeGuard(req, res, next)));
  app.use((req, res, next) => (isFileUpload(req) ? next() : json(req, res, next)));
  app.use(bodyGuard);
  app.use(auditScope());

  addProbeRoutes(app, options);

  app.use('/admin', adminAuditRouter(options.core, options.operatorToken));
  app.use(
    '/admin',
    adminRouter(options.core, options.operatorToken, {
      tasks: options.tasks ?? null,
      ...(options.recsTracking ? { recsTracking: options.recsTracking } : {}),
    }),
  );
  app.use('/console', consoleRouter({ ...options, signInRecorder }));
  app.get('/', editorHome);
  app.use('/app', editorAppRouter({ editorDir: options.editorDir ?? null }));
  const services = {
    core: options.core,
    blobs: options.blobs ?? null,
    isAssetFileOptionalOnUpdate: options.isAssetFileOptionalOnUpdate ?? false,
  };
  const files = { ...services, maxFileBytes: options.maxFileBytes };
  // The bytes are served on the assets origin only; here, a redirect there.
  app.use(binaryFilesRedirectRouter());
  const rateLimits = options.rateLimits ?? defaultRateLimits;
  const personRateLimits = options.personRateLimits ?? scaledRateLimits(rateLimits, 5);
  const v2 = managementV2Routers(options, services, files);
  const v1 = [v1ItemsRouter(services), v1AssetsRouter(files)];
  /** `routers` under `path`, behind `auth` and the rate limit of whoever it lets in. */
  const mountProject = ({
    path,
    auth,
    limits,
    routers,
  }: {
    path: string;
    auth: RequestHandler<{ projectId: string }>;
    limits: RateLimits;
    routers: readonly Router[];
  }) => {
    const project = express.Router({ mergeParams: true });
    project.use(auth);
    project.use(rateLimit(options.core, limits));
    project.use(routeByFirstSegment(routers));
    app.use(path, project);
  };
  const keyAuth = requireManagementKey(options.core);
  mountProject({ path: '/v1/projects/:projectId', auth: keyAuth, limits: rateLimits, routers: v1 });
  mountProject({ path: '/v2/projects/:projectId', auth: keyAuth, limits: rateLimits, routers: v2 });
  // The editor (issue 28): the same v2 routes for a signed-in person, and the app's own project
  // routes (the change stream, the environment's users) behind the same session check.
  const personAuth = requirePersonSession(options.core);
  mountProject({ path: '/app/api/v2/projects/:projectId', auth: personAuth, limits: personRateLimits, routers: v2 });
  mountProject({
    path: '/app/api/projects/:projectId',
    auth: personAuth,
    limits: personRateLimits,
    routers: [
      ...(options.changes ? [changesRouter({ changes: options.changes })] : []),
      presenceRouter({ core: options.core, presence: options.presence ?? createPresenceHub(options.core) }),
      appUsersRouter(options.core),
      appModelImpactRouter(options.core),
    ],
  });
  app.use(
    '/app/api',
    appApiRouter({
      core: options.core,
      logger: options.logger,
      mailer: options.linkMailer ?? null,
      sso: options.sso ?? null,
      isPasswordSignInEnabled: options.isPasswordSignInEnabled ?? true,
      signInRecorder,
      ...(options.signInThrottle ? { signInThrottle: options.signInThrottle } : {}),
    }),
  );

  app.use('/v2/subscriptions/:subscriptionId', subscriptionsRouter(options.core, options.operatorToken));
  // The MCP server (issue 34): `/mcp` and `/{environment_id}/mcp`, behind a management key.
  app.use(
    mcpRouter({
      core: options.core,
      logger: options.logger,
      blobs: services.blobs,
      maxFileBytes: options.maxFileBytes,
      rateLimits,
      deliveryIndex: options.deliveryIndex ?? null,
      remoteFetch: options.mcpRemoteFetch,
    }),
  );
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}

/**
 * Every Management API v2 router of a project, in order: the one list served under
 * `/v2/projects/:projectId` (management keys) and `/app/api/v2/projects/:projectId` (people).
 */
function managementV2Routers(
  options: ManagementAppOptions,
  services: { core: CoreDeps; blobs: BlobStore | null; isAssetFileOptionalOnUpdate: boolean },
  files: {
    core: CoreDeps;
    blobs: BlobStore | null;
    isAssetFileOptionalOnUpdate: boolean;
    maxFileBytes?: number | undefined;
  },
): Router[] {
  const tasks = options.tasks ?? null;
  return [
    environmentRouter(options.core),
    languagesRouter(options.core),
    contentTypesRouter(options.core),
    snippetsRouter(options.core),
    taxonomiesRouter(options.core),
    collectionsRouter(options.core),
    workflowsRouter(options.core),
    spacesRouter(options.core),
    settingsRouter(options.core),
    customAppsRouter(options.core),
    webhooksRouter(options.core),
    itemsWithVariantRouter(options.core),
    projectUsersRouter(
      options.core,
      options.linkMailer ? { onInvited: emailInvitations(options.core, options.linkMailer, options.logger) } : {},
    ),
    cloneRouter(options.core, { tasks }),
    validateRouter(options.core, { tasks }),
    itemsRouter(services),
    commentsRouter({
      core: options.core,
      logger: options.logger,
      mailer: options.linkMailer?.sendText
        ? { publicUrl: options.linkMailer.publicUrl, sendText: options.linkMailer.sendText }
        : null,
    }),
    variantsRouter(services),
    variantVersionsRouter(options.core),
    filesRouter(files),
    assetsRouter(services),
    renditionsRouter(options.core),
    foldersRouter(services),
    auditLogRouter(options.core),
  ];
}

/**
 * The Management app on a Node HTTP server whose parser refusals (URL and headers over 64 KiB,
 * malformed requests, timeouts) are answered in the SPEC 7.2 body, never a bare status line.
 */
export function createManagementServer(app: Express): Server {
  // The 16 KiB limit of URL and headers is the app's (`urlGuard`); the parser takes more.
  return answerClientErrorsOf(createServer({ maxHeaderSize: parserMaxHeaderBytes }, app), toManagementError);
}
