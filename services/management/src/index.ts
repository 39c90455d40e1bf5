export { buildManagementApp, createManagementServer, type ManagementAppOptions } from './app.ts';
export {
  managementCompatibilitySettings,
  managementImageLimits,
  managementImageSettings,
  managementLimitSettings,
  managementRateLimits,
  managementUrlSettings,
} from './settings.ts';
export { issuedKeyJson, keyJson, projectJson } from './http/admin/views.ts';
export { taskJson } from './http/admin/environment-routes.ts';
