export { isValidBlobKey } from '../../ports/blob-store.ts';
export type { AssetElementValue, AssetFolder, AssetFolderTree, AssetRecord, BinaryFileRecord } from './asset-record.ts';
export type {
  AssetFolderRepository,
  AssetRepository,
  BinaryFileRepository,
  PendingUploadRepository,
} from '../../ports/store.ts';
export { blobKeyOf, defaultMaxFileBytes, openBinaryFile, uploadBinaryFile, type UploadFileInput } from './files.ts';
export { abandonedUploadMs, sweepAbandonedUploads } from './upload-journal.ts';
export {
  addAsset,
  assetJson,
  assetJsonV1,
  assetUrl,
  deleteAsset,
  getAsset,
  listAssets,
  upsertAsset,
  type AssetView,
} from './assets.ts';
export {
  addAssetFolders,
  assetFoldersJson,
  listAssetFolders,
  modifyAssetFolders,
  type AssetFolderJson,
} from './folders.ts';
export {
  addRendition,
  getRendition,
  listRenditions,
  modifyRendition,
  renditionJson,
  type RenditionRecord,
  type Transformation,
} from './renditions.ts';
export {
  defaultPresetCodename,
  defaultPresetId,
  deliveryRendition,
  findImageSource,
  readRenditionRefs,
  renditionQuery,
} from './rendition-query.ts';
