import { z } from 'zod';
import {
  cancelScheduledPublish,
  cancelScheduledUnpublish,
  changeWorkflow,
  createNewVersion,
  publishVariant,
  schedulePublishAndUnpublish,
  unpublishVariant,
} from '@lectern/core';
import { itemAndLanguage, variantInput } from './content-tools.ts';
import { reference, tool, type AnyTool } from './tool-kit.ts';

const schedule = {
  scheduled_to: z.string().max(100).optional().describe('ISO-8601 date and time in the future; leave out for now'),
  display_timezone: z.string().max(100).optional().describe('Time zone the editor shows, e.g. Europe/Prague'),
};
/** The action body the API takes: empty for "now", else the schedule. */
const scheduleBody = (args: { scheduled_to?: string | undefined; display_timezone?: string | undefined }) =>
  args.scheduled_to === undefined
    ? undefined
    : {
        scheduled_to: args.scheduled_to,
        ...(args.display_timezone ? { display_timezone: args.display_timezone } : {}),
      };

/** Workflow of a variant: steps, publishing (now or scheduled), unpublishing and new versions. */
export const workflowTools: readonly AnyTool[] = [
  tool({
    name: 'change-variant-workflow-step-mapi',
    title: 'Change the workflow step of a variant',
    description: 'Moves a variant to a step of a workflow (see list-workflows-mapi for their steps).',
    input: { ...itemAndLanguage, workflow: reference.describe('The workflow'), workflow_step: reference },
    isReadOnly: false,
    run: async (args, context) => {
      const body = { workflow_identifier: args.workflow, step_identifier: args.workflow_step };
      await changeWorkflow(context.core, { ...variantInput(args, context), body });
      return { changed: true };
    },
  }),
  tool({
    name: 'publish-variant-mapi',
    title: 'Publish a variant',
    description: 'Publishes a variant now, or schedules it with scheduled_to.',
    input: { ...itemAndLanguage, ...schedule },
    isReadOnly: false,
    run: async (args, context) => {
      const body = scheduleBody(args);
      await publishVariant(context.core, { ...variantInput(args, context), body });
      return { published: body === undefined, scheduled_to: body?.scheduled_to ?? null };
    },
  }),
  tool({
    name: 'unpublish-variant-mapi',
    title: 'Unpublish and archive a variant',
    description: 'Unpublishes a published variant and archives it, now or at scheduled_to.',
    input: { ...itemAndLanguage, ...schedule },
    isReadOnly: false,
    run: async (args, context) => {
      const body = scheduleBody(args);
      await unpublishVariant(context.core, { ...variantInput(args, context), body });
      return { unpublished: body === undefined, scheduled_to: body?.scheduled_to ?? null };
    },
  }),
  tool({
    name: 'schedule-publish-and-unpublish-mapi',
    title: 'Schedule publishing and unpublishing',
    description: 'Schedules a variant to be published and/or unpublished at given times.',
    input: {
      ...itemAndLanguage,
      publish_scheduled_to: z.string().max(100).optional(),
      publish_display_timezone: z.string().max(100).optional(),
      unpublish_scheduled_to: z.string().max(100).optional(),
      unpublish_display_timezone: z.string().max(100).optional(),
    },
    isReadOnly: false,
    run: async (args, context) => {
      const { item: _item, language: _language, ...body } = args;
      await schedulePublishAndUnpublish(context.core, { ...variantInput(args, context), body });
      return { scheduled: true };
    },
  }),
  ...(
    [
      [
        'cancel-scheduled-publish-mapi',
        'Cancel scheduled publishing',
        'Cancels the scheduled publishing of a variant.',
        cancelScheduledPublish,
        'cancelled',
      ],
      [
        'cancel-scheduled-unpublish-mapi',
        'Cancel scheduled unpublishing',
        'Cancels the scheduled unpublishing of a variant.',
        cancelScheduledUnpublish,
        'cancelled',
      ],
      [
        'create-variant-version-mapi',
        'Create a new version of a published variant',
        'Starts a new draft version of a published variant (the published one stays live).',
        createNewVersion,
        'created',
      ],
    ] as const
  ).map(([name, title, description, action, answer]) =>
    tool({
      name,
      title,
      description,
      input: itemAndLanguage,
      isReadOnly: false,
      run: async (args, context) => {
        await action(context.core, variantInput(args, context));
        return { [answer]: true };
      },
    }),
  ),
];
