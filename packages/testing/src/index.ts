import './provided-context.ts';
export { describeStoreContract } from './store-contract.ts';
export { createTestDatabase } from './test-database.ts';
export { createTestClock, type TestClock } from './test-clock.ts';
export { openTestCore, seedProject, type TestCore } from './test-core.ts';
export { memorySignals } from './memory-signals.ts';
export { fixturesRoot, readFixture, shapeDifferences } from './fixture-shape.ts';
export { describeBlobContract } from './blob-contract.ts';
export { describeWebhookContract } from './webhook-contract.ts';
export { startTestReceiver, type Received, type TestReceiver } from './webhook-receiver.ts';
export { everyItem } from './item-queries.ts';
export { describeRecsIndexContract, type OpenedRecsIndex } from './recs-index-contract.ts';
export { describeDeliveryIndexContract, type OpenedIndex } from './delivery-index-contract.ts';
export { describeDeliveryIndexLinksContract, linksContractProjectId } from './delivery-index-links-contract.ts';
export {
  describeBusContract,
  eventsOf,
  newChangeEvent,
  range,
  recorder,
  waitFor,
  waitUntilAllApplied,
  type BusContractTarget,
  type BusSpace,
} from './bus-contract.ts';
export {
  bookkeepingTables,
  snapshotChanges,
  storeSnapshot,
  storeTables,
  type StoreSnapshot,
  type StoreSnapshotOptions,
} from './project-snapshot.ts';
