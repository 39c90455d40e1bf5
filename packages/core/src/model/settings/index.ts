export {
  addCustomApp,
  customAppJson,
  deleteCustomApp,
  getCustomApp,
  listCustomApps,
  modifyCustomApp,
  type CustomAppBody,
  type CustomAppRecord,
} from './custom-apps.ts';
export {
  getPreviewConfiguration,
  modifyPreviewConfiguration,
  type PreviewConfiguration,
} from './preview-configuration.ts';
export { getRole, isRoleId, listRoles, listRolesOf, roleId, type RoleJson } from './roles.ts';
export {
  activateWebSpotlight,
  changeLivePreview,
  deactivateWebSpotlight,
  getLivePreview,
  getWebSpotlight,
  type LivePreviewStatus,
  type WebSpotlightStatus,
} from './web-spotlight.ts';
