export { openFsBlobStore, type FsBlobStoreOptions } from './fs-blob-store.ts';
