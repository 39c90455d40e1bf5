export {
  cancelScheduledPublish,
  cancelScheduledUnpublish,
  changeWorkflow,
  createNewVersion,
  publishVariant,
  unpublishVariant,
} from './actions.ts';
export { schedulePublishAndUnpublish, unpublishToDraft } from './schedule-actions.ts';
export { runDueJobs, startScheduler } from './scheduler.ts';
export type { ScheduledJob } from './scheduled-job.ts';
