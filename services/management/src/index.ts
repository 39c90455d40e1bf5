export { buildManagementApp, createManagementServer, type ManagementAppOptions } from './app.ts';
export { buildAssetsApp, createAssetsServer, type AssetsAppOptions } from './assets-app.ts';
export { defaultEditorDir } from './http/editor-app/routes.ts';
export { resolveAssetsOrigin, type AssetsOriginOptions } from './http/assets-origin.ts';
export {
  historyRetention,
  managementCompatibilitySettings,
  managementHistorySettings,
  managementImageLimits,
  managementImageSettings,
  managementLimitSettings,
  auditSettings,
  managementRateLimits,
  managementUrlSettings,
  minOperatorTokenLength,
  operatorTokenSchema,
} from './settings.ts';
export { managementSsoSettings, ssoOptionsOf, type RoleMapEntry, type SsoOptions } from './sso-settings.ts';
export { issuedKeyJson, keyJson, projectJson } from './http/admin/views.ts';
export { taskJson } from './http/admin/environment-routes.ts';
export {
  appSessionCookie,
  csrfHeader,
  linkMailer,
  linkMailerOf,
  requirePersonSession,
  discoverSso,
  type SignInEvent,
  type SignInOptionsJson,
  type SignInRecorder,
  type SsoClient,
  type LinkMailer,
  type PersonLinkJson,
  type SessionJson,
  type SessionUserJson,
  type SignedInJson,
  type SignedOutEverywhereJson,
} from './http/app-api/routes.ts';
export { createChangeHub, type ChangeHub, type ChangeListener } from './changes/change-hub.ts';
export { createPresenceHub, type PresenceHub } from './presence/presence-hub.ts';
export { changesRouter, type ChangeMessage, type ChangesRouterDeps } from './http/app-api/changes-routes.ts';
export { startAuditRetention } from './audit-retention.ts';
