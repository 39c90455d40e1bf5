export {
  recsScenarios,
  type CorpusStats,
  type EmbeddingProvider,
  type RecommendQuery,
  type RecsBatch,
  type RecsEntry,
  type RecsIndexWriter,
  type RecsReader,
  type RecsScenario,
  type RecsTracking,
  type SearchQuery,
  type VisitKind,
} from './recs-port.ts';
export { createHashedEmbedder, words } from './hashed-embedder.ts';
export { embeddedText, entryOf, plainText, renderRecsEntries, type RenderedEntry } from './recs-entries.ts';
export { createRecsConsumer, indexRecsProject, type RecsConsumer, type RecsConsumerOptions } from './recs-indexer.ts';
export {
  childrenOf,
  parseQuery,
  QueryLimitError,
  QueryRangeError,
  QuerySyntaxError,
  type BinaryOp,
  type QueryLimit,
  type QueryNode,
} from './query/grammar.ts';
export { queryLimits } from './query/limits.ts';
export { parseRecsQuery, queryProperties, typeOf, type QueryType } from './query/check.ts';
export {
  candidatesFor,
  firstCandidates,
  halfPopularVisits,
  isNearOnly,
  maxCandidates,
  searchVectorWeight,
  similarWeight,
} from './ranking.ts';
export type { RecsLedger } from './recs-ledger-port.ts';
