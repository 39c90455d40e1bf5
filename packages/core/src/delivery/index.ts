export * from './index-port.ts';
export { createSeqTracker, type SeqTracker, type SeqTrackerOptions } from './seq-tracker.ts';
export * from './indexer/index.ts';
