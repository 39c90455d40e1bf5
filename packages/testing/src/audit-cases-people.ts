import * as core from '@lectern/core';
import { operator } from '@lectern/core';
import { expect } from 'vitest';
import { m, v, type AuditCase } from './audit-case-kit.ts';

/** People, sessions, webhooks, settings and workflow moves (audit-operations.int.test.ts). In order, after modelCases. */
export const peopleCases: AuditCase[] = [
  [
    'inviteUser',
    'user.invite',
    (c) =>
      core.inviteUser(c.deps, {
        ...m(c),
        body: {
          email: 'writer@example.com',
          collection_groups: [
            { collections: [], roles: [{ id: core.roleId(c.projectId, 'project-manager'), languages: [] }] },
          ],
        },
      }),
  ],
  [
    'changeUserRoles',
    'user.roles_change',
    (c) =>
      core.changeUserRoles(c.deps, {
        ...m(c),
        user: { email: 'writer@example.com' },
        body: {
          collection_groups: [
            { collections: [], roles: [{ id: core.roleId(c.projectId, 'content-creator'), languages: [] }] },
          ],
        },
      } as never),
  ],
  [
    'issuePersonLink',
    'person_link.issue',
    async (c) => {
      const link = await core.issuePersonLink(c.deps, {
        actor: operator,
        projectId: c.projectId,
        email: 'writer@example.com',
        purpose: 'invite',
      });
      c.state['link'] = link.token;
    },
  ],
  [
    'acceptPersonLink',
    'person_link.invitation_accept',
    (c) =>
      core.acceptPersonLink(c.deps, { token: c.state['link'] as string, password: 'correct horse battery staple 1' }),
    'user',
  ],
  [
    'signInPerson',
    'session.sign_in',
    async (c) => {
      c.state['session'] = (
        await core.signInPerson(c.deps, { email: 'writer@example.com', password: 'correct horse battery staple 1' })
      ).token;
    },
    'user',
  ],
  ['signOutPerson', 'session.sign_out', (c) => core.signOutPerson(c.deps, c.state['session'] as string), 'user'],
  [
    'signOutEverywhere',
    'session.sign_out_everywhere',
    async (c) => {
      const user = await c.deps.store.transaction((tx) => tx.users.findByEmail('writer@example.com'));
      await core.signOutEverywhere(c.deps, { userId: user?.id as string });
    },
    'user',
  ],
  [
    'recordSignIn',
    'session.sign_in_failed',
    (c) => expect(core.signInPerson(c.deps, { email: 'writer@example.com', password: 'wrong' })).rejects.toThrow(),
    'anonymous',
  ],
  [
    'requestPasswordReset',
    'person_link.issue',
    (c) => core.requestPasswordReset(c.deps, { email: 'writer@example.com' }),
  ],
  [
    'setCollections',
    'collection.',
    (c) =>
      core.setCollections(c.deps, {
        ...m(c),
        operations: [{ op: 'addInto', value: { name: 'Marketing', codename: 'marketing' } }],
      }),
  ],
  [
    'addWebhook',
    'webhook.create',
    async (c) => {
      const hook = await core.addWebhook(c.deps, {
        ...m(c),
        format: 'vnext',
        body: {
          name: 'Hook',
          url: 'https://example.com/hook',
          secret: 'x'.repeat(40),
          delivery_triggers: { slot: 'published', events: 'all' },
        },
      } as never);
      c.state['webhook'] = hook.id;
    },
  ],
  [
    'setWebhookEnabled',
    'webhook.enabled_change',
    (c) =>
      core.setWebhookEnabled(c.deps, {
        ...m(c),
        format: 'vnext',
        id: c.state['webhook'] as string,
        isEnabled: false,
      } as never),
  ],
  [
    'changeWebhookUrl',
    'webhook.url_change',
    (c) =>
      core.changeWebhookUrl(c.deps, {
        ...m(c),
        format: 'vnext',
        id: c.state['webhook'] as string,
        body: { url: 'https://example.com/other' },
      } as never),
  ],
  [
    'resetWebhook',
    'webhook.reset',
    (c) => core.resetWebhook(c.deps, { ...m(c), format: 'vnext', id: c.state['webhook'] as string } as never),
  ],
  [
    'deleteWebhook',
    'webhook.delete',
    (c) => core.deleteWebhook(c.deps, { ...m(c), format: 'vnext', id: c.state['webhook'] as string } as never),
  ],
  ['startValidation', 'validation.start', (c) => core.startValidation(c.deps, m(c))],
  [
    'renameEnvironment',
    'project.',
    (c) =>
      core.renameEnvironment(c.deps, {
        actor: operator,
        projectId: c.state['project2'] as string,
        operations: [{ op: 'rename_environment', value: 'Live' }],
      }),
  ],
  [
    'addCustomApp',
    'custom_app.create',
    (c) =>
      core.addCustomApp(c.deps, {
        ...m(c),
        body: { name: 'App', codename: 'app', source_url: 'https://customapp.net', allowed_roles: [] },
      }),
  ],
  [
    'modifyCustomApp',
    'custom_app.update',
    (c) =>
      core.modifyCustomApp(c.deps, {
        ...m(c),
        key: { codename: 'app' },
        operations: [{ op: 'replace', property_name: 'name', value: 'The app' }],
      }),
  ],
  ['deleteCustomApp', 'custom_app.delete', (c) => core.deleteCustomApp(c.deps, { ...m(c), key: { codename: 'app' } })],
  [
    'addAssetFolders',
    'asset_folder.',
    (c) => core.addAssetFolders(c.deps, { ...m(c), body: { folders: [{ name: 'Photos', folders: [] }] } }),
  ],
  [
    'modifyAssetFolders',
    'asset_folder.',
    (c) =>
      core.modifyAssetFolders(c.deps, {
        ...m(c),
        operations: [{ op: 'rename', reference: { codename: 'photos' }, value: 'Pictures' }],
      }),
  ],
  // A second item, its variant published (prepared outside the counted window), then the workflow operations.
  ['unpublishVariant', 'variant.unpublish', async (c) => core.unpublishVariant(c.deps, v(c, 'second'))],
  ['createNewVersion', 'variant.new_version', async (c) => core.createNewVersion(c.deps, v(c, 'third'))],
  [
    'changeWorkflow',
    'variant.change_workflow_step',
    (c) =>
      core.changeWorkflow(c.deps, {
        ...v(c, 'third'),
        body: { workflow_identifier: { codename: 'default' }, step_identifier: { codename: 'draft' } },
      }),
  ],
  [
    'schedulePublishAndUnpublish',
    'variant.schedule_publish',
    (c) =>
      core.schedulePublishAndUnpublish(c.deps, {
        ...v(c, 'third'),
        body: { publish_scheduled_to: new Date(Date.now() + 86_400_000).toISOString() },
      }),
  ],
  [
    'cancelScheduledPublish',
    'variant.cancel_scheduled_publish',
    (c) => core.cancelScheduledPublish(c.deps, v(c, 'third')),
  ],
];
