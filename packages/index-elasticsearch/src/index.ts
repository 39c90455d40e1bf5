export { createSearchIndex, type SearchDeliveryIndex, type SearchIndexOptions } from './search-index.ts';
export {
  connectSearchEngine,
  elasticsearchEngine,
  openSearchEngine,
  type SearchBody,
  type SearchEngine,
  type SearchHit,
  type SearchFlavour,
} from './engine-client.ts';
export { mappingVersion } from './mapping.ts';
export { deliveryIndexSettings, type DeliveryIndexConfig } from './settings.ts';
export {
  openDeliveryIndex,
  openReachableDeliveryIndex,
  deliveryIndexProblem,
  type OpenedDeliveryIndex,
} from './open-delivery-index.ts';
