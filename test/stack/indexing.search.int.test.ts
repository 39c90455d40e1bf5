/**
 * The indexing tests of indexing.int.test.ts, run by the `search` project: the same tests, on the
 * search-engine delivery index (OpenSearch) instead of the SQL one.
 */
import './indexing.int.test.ts';
