/**
 * The rendition tests of renditions-sdk.int.test.ts, run by the `search` project: the same tests
 * on the search-engine delivery index (OpenSearch) instead of the SQL one.
 */
import './renditions-sdk.int.test.ts';
