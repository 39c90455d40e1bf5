export type { Clock } from './ports/clock.ts';
export { systemClock } from './ports/clock.ts';
export type { IdSource } from './ports/id-source.ts';
export { randomIds } from './ports/id-source.ts';
export type { BlobEntry, BlobInfo, BlobStore } from './ports/blob-store.ts';
export { BlobStoreFullError } from './ports/blob-store.ts';
export type { ImageCacheEntry, ImageCacheRepository } from './ports/image-cache.ts';
export type { EventBus, EventHandler, EventSubscription } from './ports/event-bus.ts';
export type {
  ApiKeyRepository,
  ModelRepository,
  Outbox,
  OutboxRelayRepository,
  RelayClaim,
  ProjectRepository,
  RateLimitRepository,
  Store,
  UnitOfWork,
  UserRepository,
} from './ports/store.ts';
export { modelKinds, type ModelKind, type ModelRecord, type RecordKey } from './domain/model-record.ts';
export type { CoreDeps } from './deps.ts';
export type { Actor, Permission } from './domain/actor.ts';
export { operator, userIdOf } from './domain/actor.ts';
export type { PeopleRepository, PersonLink, PersonLinkPurpose, PersonSession } from './ports/people.ts';
export type { PresenceBeat, PresenceEntry, PresenceRepository, VariantIds } from './ports/presence.ts';
export * from './people/index.ts';
export type { Project, User } from './domain/project.ts';
export {
  apiKeyKinds,
  isApiKeyKind,
  statusOfKey,
  type ApiKeyKind,
  type ApiKeyRecord,
  type ApiKeyStatus,
  type ApiKeyView,
} from './domain/api-key.ts';
export { formatKey, hashSecret, parseKey } from './domain/key-secret.ts';
export { isUuid } from './domain/uuid.ts';
export type { ChangeChannel, ChangeEvent, NewChangeEvent } from './domain/change-event.ts';
export {
  createProject,
  getProject,
  listProjects,
  projectNameMax,
  renameEnvironment,
  updateProject,
} from './operations/projects.ts';
export { projectOverview, type ProjectOverview } from './operations/project-overview.ts';
export {
  createApiKey,
  listApiKeys,
  managementKeyValidityDays,
  regenerateApiKey,
  revokeApiKey,
  type CreateKeyInput,
  type IssuedKey,
} from './operations/api-keys.ts';
export {
  authenticate,
  authenticateKeyOfAnyProject,
  createCachedAuthenticator,
  type ApiSurface,
  type CachedAuthenticator,
} from './operations/authenticate.ts';
export {
  deleteEnvironment,
  getCloningState,
  markEnvironmentAsProduction,
  startClone,
  type CloningState,
  type StartedClone,
} from './operations/clone-environment.ts';
export {
  appUserJson,
  changeUserRoles,
  inviteUser,
  listProjectUsers,
  projectUserJson,
  type AppUserJson,
  type CollectionGroup,
  type ProjectUserSummary,
  type ProjectUserRecord,
} from './operations/project-users.ts';
export {
  getSubscriptionProject,
  getSubscriptionUser,
  listSubscriptionProjects,
  listSubscriptionUsers,
  setUserActive,
  subscriptionId,
} from './operations/subscriptions.ts';
export { permissionsOfRole } from './operations/permissions.ts';
export * from './model/index.ts';
export * from './content/index.ts';
export * from './delivery/index.ts';
export * from './events/index.ts';
export { createSerialQueue, type SerialQueue } from './serial-queue.ts';
export { parseSeqSignal, type SignalTopic, type Signals } from './ports/signals.ts';
export type {
  DeliveryAttempt,
  ExpiringKey,
  NoticeRepository,
  NewWebhookNotification,
  NotificationFilter,
  NotificationState,
  WebhookNotification,
  WebhookQueueRepository,
  WebhookFormat,
  WebhookHeader,
  WebhookHealth,
  WebhookHealthState,
  WebhookRecord,
  WebhookRegistration,
  WebhookRepository,
} from './ports/webhooks.ts';
export * from './webhooks/index.ts';
export { assertNever } from '@lectern/errors';
export * from './recommendations/index.ts';
export {
  backgroundTaskHandlers,
  getBackgroundTask,
  runBackgroundTasks,
  startBackgroundTasks,
  startTaskRunner,
  TaskLeaseLost,
  type BackgroundTask,
  type BackgroundTaskKind,
  type BackgroundTaskRepository,
  type BackgroundTaskStatus,
  type NewBackgroundTask,
  type TaskContext,
  type TaskHandler,
  type TaskRunner,
  type TaskRunnerOptions,
  type TaskStep,
} from './tasks/index.ts';
export * from './audit/index.ts';
