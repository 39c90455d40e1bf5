/**
 * The Sync API tests of sync.int.test.ts, run by the `search` project: the same tests, on the
 * search-engine delivery index (OpenSearch) instead of the SQL one.
 */
import './sync.int.test.ts';
