/**
 * The index of one project: its settings and mapping. Item-level properties are keyword fields;
 * each element value (and `system.workflow`, `system.workflow_step`) lands under
 * `v.<property>` in typed sub-fields chosen by the value itself, and the codenames of array
 * elements under `m.<property>`, both mapped by dynamic templates: a new element, or an element
 * deleted and re-created with another kind, never needs a mapping change.
 *
 * | sub-field | type    | holds                                                                 |
 * | --------- | ------- | --------------------------------------------------------------------- |
 * | `k`       | keyword | the value's kind: n(umber), s(tring), a(rray), o(bject), b(oolean), z(null) |
 * | `n`       | double  | a number                                                              |
 * | `s`       | keyword | a string (comparisons and equality)                                   |
 * | `t`       | keyword | the text ordering compares: a string, or an array's or object's JSON  |
 * | `e`       | boolean | empty: null, '' or []                                                 |
 */

/** Strings longer than this many characters are stored but not indexed (Lucene's term limit is 32 KiB). */
export const indexedStringLength = 8_000;

const keyword = { type: 'keyword' } as const;
const longKeyword = { type: 'keyword', ignore_above: indexedStringLength } as const;

/** Bumped when the mapping changes incompatibly: `rebuild` then writes a new index. */
export const mappingVersion = 1;

export const indexSettings = {
  number_of_shards: 1,
  number_of_replicas: 0,
  // Only the writer refreshes, once a whole batch is written (before the watermark moves).
  refresh_interval: '-1',
  'mapping.total_fields.limit': 20_000,
  max_result_window: 10_000,
} as const;

export const indexMappings = {
  dynamic: true,
  _meta: { lectern_mapping_version: mappingVersion },
  dynamic_templates: [
    { value_kind: { path_match: 'v.*.*.k', mapping: keyword } },
    { value_number: { path_match: 'v.*.*.n', mapping: { type: 'double' } } },
    { value_string: { path_match: 'v.*.*.s', mapping: longKeyword } },
    { value_order: { path_match: 'v.*.*.t', mapping: longKeyword } },
    { value_empty: { path_match: 'v.*.*.e', mapping: { type: 'boolean' } } },
    { members: { path_match: 'm.*.*', mapping: keyword } },
  ],
  properties: {
    project: keyword,
    channel: keyword,
    item_id: keyword,
    language: keyword,
    codename: keyword,
    name: longKeyword,
    type: keyword,
    collection: keyword,
    last_modified: keyword,
    /** Languages the item has a document in, in this channel (language fallbacks). */
    langs: keyword,
    /** The sequence from which this version is visible, and (when superseded) up to which. */
    from: { type: 'long' },
    until: { type: 'long' },
    /**
     * When the mark superseding it was written (ms since the epoch; kept for diagnosis: the sweep
     * deletes by `until` against the watermarks committed longer ago than the grace time).
     */
    archived_at: { type: 'long' },
    /** Content hash (Delivery JSON and links): a difference is a Sync change. */
    hash: { type: 'keyword', index: false },
    /** The hash above plus the item’s languages and the read-ahead hint: a difference rewrites the document. */
    whash: { type: 'keyword', index: false },
    dep: keyword,
    assets: keyword,
    uses: keyword,
    /**
     * The reader's IndexedVariant as JSON text, and its `system` object (for a deletion's Sync
     * entry), neither indexed. (Measured slower: the variant as an unindexed object, which source
     * filtering parses and writes again, and the text as a stored field.)
     */
    body: { type: 'text', index: false },
    sys: { type: 'text', index: false },
    v: { type: 'object', dynamic: true },
    m: { type: 'object', dynamic: true },
  },
} as const;

/**
 * Names. Projects share an index (`<prefix>-v<mapping version>-g<generation>`); each project is
 * read and written through its own filtered alias `<prefix>-<project id>`; `<prefix>-current`
 * names the shared index new projects join. Measured on the test machine: creating an index took
 * 0.4–1.6 s (shard allocation, per project), adding an alias 60–130 ms; and every index costs the
 * engine a shard's memory, so one index per project does not scale to many projects.
 */
export const aliasOf = (prefix: string, projectId: string) => `${prefix}-${projectId}`;
export const currentAliasOf = (prefix: string) => `${prefix}-current`;
export const sharedIndexOf = (prefix: string, generation: number) => `${prefix}-v${mappingVersion}-g${generation}`;
export const sharedIndexPattern = (prefix: string) => `${prefix}-v*`;
/** The filter of a project's alias. */
export const projectFilter = (projectId: string) => ({ term: { project: projectId } });
