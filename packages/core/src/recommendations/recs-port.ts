import type { QueryNode } from './query/grammar.ts';

/**
 * The recommendation index (SPEC 2.9, issue 16): one entry per published item and language, with
 * an embedding of its text. The recommendation consumer writes it from change events; the
 * Recommendations API reads it. Adapters: `recs-sql` (pgvector in PGlite, PostgreSQL).
 */

/** One published item in one language, as the engine sees it. */
export interface RecsEntry {
  readonly itemId: string;
  readonly language: string;
  readonly codename: string;
  readonly name: string;
  readonly type: string;
  /** Time of the last content change, in milliseconds since the epoch. */
  readonly lastUpdated: number;
  /** Multiple-choice and taxonomy selections as `<element>=<value>` pairs. */
  readonly properties: readonly string[];
  /** The item's text (name, text and rich text elements), for lexical search. */
  readonly text: string;
  /** Its distinct words and properties: what document frequencies count. */
  readonly terms: readonly string[];
  readonly embedding: readonly number[];
}

/** Document frequencies of terms in a project's entries (for IDF weighting). */
export interface CorpusStats {
  /** Entries counted. */
  readonly documents: number;
  /** Entries holding the term (0 for a term never seen). */
  documentFrequency(term: string): number;
}

export interface RecsBatch {
  readonly projectId: string;
  /** The last event sequence the batch covers; it becomes the watermark. */
  readonly toSeq: number;
  /** Id of the embedding provider that made the embeddings. */
  readonly embedder: string;
  /** Full replacements: every entry of each listed item; an item with none is removed. */
  readonly items: readonly { readonly itemId: string; readonly entries: readonly RecsEntry[] }[];
  /** A part of a re-render too large for one transaction: written, but the watermark stays. */
  readonly isPartial?: boolean;
  /** The last part of a re-render of every item: its entry count is kept (see `fullDocuments`). */
  readonly isFull?: boolean;
}

export interface RecsIndexWriter {
  /** The sequence up to which the project's recommendation entries are current (0: nothing yet). */
  watermark(projectId: string): Promise<number>;
  /** Ids of every item with an entry. */
  indexedItemIds(projectId: string): Promise<string[]>;
  /**
   * Applies the batch in one transaction when `toSeq` is above the watermark; false and nothing
   * written otherwise (redelivered events are ignored).
   */
  apply(batch: RecsBatch): Promise<boolean>;
  /** Document frequencies of the terms among the project's entries. */
  termStats(options: { projectId: string; terms: readonly string[] }): Promise<CorpusStats>;
  /** The entry count at the last re-render of every item (0: none yet). */
  fullDocuments(projectId: string): Promise<number>;
}

/**
 * Turns texts into dense vectors of `dimensions` numbers, comparable by cosine similarity. A
 * provider is deterministic: the same text gives the same vector. `id` changes whenever its
 * vectors would (another model, other dimensions).
 */
export interface EmbeddingProvider {
  readonly id: string;
  readonly dimensions: number;
  /** `stats`, when given, lets a provider weight rare terms up (providers may ignore it). */
  embed(texts: readonly string[], options?: { stats?: CorpusStats }): Promise<number[][]>;
}

/** SPEC 4.5 rule 1. */
export type RecsScenario = 'similar' | 'popular' | 'default';
export const recsScenarios: readonly RecsScenario[] = ['similar', 'popular', 'default'];

export interface RecommendQuery {
  readonly projectId: string;
  readonly currentItemCodename: string;
  readonly requestedType: string;
  readonly limit: number;
  readonly scenario: RecsScenario;
  /** A checked filter (boolean) and booster (number), or null. */
  readonly filter: QueryNode | null;
  readonly booster: QueryNode | null;
  /** `now()` of the filter and booster, and the instant popularity decays to. */
  readonly nowMs: number;
}

export interface SearchQuery {
  readonly projectId: string;
  readonly text: string;
  readonly embedding: readonly number[];
  readonly requestedType: string | null;
  readonly limit: number;
}

/** What the Recommendations API reads: codenames, best first, never repeated. */
export interface RecsReader {
  /**
   * Items of the requested type other than the current one, passing the filter, by the
   * scenario's score times the booster: `similar` by cosine similarity to the current item,
   * `popular` by time-decayed visits, `default` a blend of both.
   */
  recommend(query: RecommendQuery): Promise<string[]>;
  /** Items by a blend of vector similarity to the query and lexical relevance of its words. */
  search(query: SearchQuery): Promise<string[]>;
  /** Document frequencies of the terms among the project's entries (to embed a search). */
  termStats(options: { projectId: string; terms: readonly string[] }): Promise<CorpusStats>;
}

export type VisitKind = 'visit' | 'conversion' | 'portion';

/** Visits and visitors (SPEC 4.5 rules 4–9). Nothing here stores a visitor's IP address. */
export interface RecsTracking {
  recordVisit(input: {
    projectId: string;
    visitId: string;
    codename: string;
    kind: VisitKind;
    /** Percentage seen, for `portion`. */
    portion?: number;
    at: Date;
  }): Promise<void>;
  recordVisitor(input: {
    projectId: string;
    visitId: string;
    referer: string | null;
    location: Readonly<Record<string, unknown>> | null;
    custom: Readonly<Record<string, unknown>> | null;
    at: Date;
  }): Promise<void>;
  /** Whether the project tracks visits manually only (SPEC 4.5 rule 8); false unless set. */
  isManualTracking(projectId: string): Promise<boolean>;
  setManualTracking(projectId: string, isManual: boolean): Promise<void>;
}
