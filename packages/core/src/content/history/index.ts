export {
  getVariantVersion,
  listVariantVersions,
  restoreVariantVersion,
  versionPageSize,
  type VersionInput,
} from './history.ts';
export { changedElementIds, interfaceOf, recordVersion, snapshotEvery } from './record-version.ts';
export { applyChain } from './rebuild.ts';
export { isRetentionOn, pruneHistory, versionsToRemove, type HistoryRetention } from './retention.ts';
export type { VersionJson } from './version-json.ts';
export type {
  NewStoredVersion,
  StoredVersion,
  VariantHistoryRepository,
  VariantRef,
  VersionInterface,
  VersionMeta,
} from './version-record.ts';
