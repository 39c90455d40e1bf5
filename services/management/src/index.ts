export { buildManagementApp, type ManagementAppOptions } from './app.ts';
export { issuedKeyJson, keyJson, projectJson } from './http/admin/views.ts';
