export {
  addWebhook,
  changeWebhookUrl,
  debugListWindowMs,
  deleteWebhook,
  getWebhook,
  listWebhookNotifications,
  listWebhooks,
  resetWebhook,
  setWebhookEnabled,
  type OneWebhookInput,
  type WebhookInput,
} from './webhooks.ts';
export { editWebhook } from './webhook-edit.ts';
export { legacyWebhookJson, webhookJson, webhookNotificationJson } from './webhook-json.ts';
export { readBoolean } from './webhook-triggers.ts';
export * from './webhook-vocabulary.ts';
export {
  assetActions,
  languageActions,
  taxonomyActions,
  webhookActionsField,
  type AssetShape,
  type LanguageShape,
  type TaxonomyShape,
} from './change-actions.ts';
