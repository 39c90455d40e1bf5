export { buildManagementApp, type ManagementAppOptions } from './app.ts';
export { managementLimitSettings, managementRateLimits } from './settings.ts';
export { issuedKeyJson, keyJson, projectJson } from './http/admin/views.ts';
