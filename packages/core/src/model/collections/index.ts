export {
  collectionJson,
  collectionsJson,
  listCollections,
  setCollections,
  type CollectionBody,
  type CollectionRecord,
} from './collections.ts';
