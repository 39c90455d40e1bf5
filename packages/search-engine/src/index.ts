/**
 * The OpenSearch / Elasticsearch client both search adapters use (the delivery index and the
 * k-NN recommendation index): a driver-like library, not an adapter of a core port.
 */
export {
  connectSearchEngine,
  elasticsearchEngine,
  openSearchEngine,
  type SearchAnswer,
  type SearchBody,
  type SearchEngine,
  type SearchHit,
  type SearchFlavour,
} from './engine-client.ts';
