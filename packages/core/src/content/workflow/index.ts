export {
  cancelScheduledPublish,
  cancelScheduledUnpublish,
  changeWorkflow,
  createNewVersion,
  publishVariant,
  unpublishVariant,
} from './actions.ts';
export { runDueJobs } from './scheduler.ts';
export type { ScheduledJob } from './scheduled-job.ts';
