import './provided-context.ts';
export { describeStoreContract } from './store-contract.ts';
export { createTestDatabase } from './test-database.ts';
