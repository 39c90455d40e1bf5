export { buildManagementApp, createManagementServer, type ManagementAppOptions } from './app.ts';
export { managementCompatibilitySettings, managementLimitSettings, managementRateLimits } from './settings.ts';
export { issuedKeyJson, keyJson, projectJson } from './http/admin/views.ts';
