export { createSearchIndex, type SearchDeliveryIndex, type SearchIndexOptions } from './search-index.ts';
export { mappingVersion } from './mapping.ts';
