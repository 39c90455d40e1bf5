import { randomBytes } from 'node:crypto';
import { Option, type Command } from 'commander';
import { deliverySlots } from '@lectern/core';
import type { WebhookJson } from '../admin/webhook-admin.ts';
import { printTable, withAdmin, withAdminOptions, type AdminFlags } from './admin-options.ts';

function printWebhook(webhook: WebhookJson, flags: AdminFlags): void {
  if (flags.json) console.log(JSON.stringify(webhook));
  else
    printTable(
      [{ ...webhook, slot: webhook.delivery_triggers['slot'], events: webhook.delivery_triggers['events'] }],
      ['id', 'name', 'url', 'enabled', 'health_status', 'slot', 'events'],
    );
}

/** `key=value` headers, repeatable. */
function collectHeader(value: string, previous: { key: string; value: string }[] = []) {
  const at = value.indexOf('=');
  if (at <= 0) throw new Error(`--header takes key=value, not '${value}'.`);
  return [...previous, { key: value.slice(0, at), value: value.slice(at + 1) }];
}

/**
 * `lectern webhooks …`: the `/webhooks-vnext` webhooks of a project (current notification format),
 * their reset and URL change, and the debug list of SPEC 6.8.
 */
export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('Manage webhooks (current notification format) and read their delivery debug list.');
  const simple = (name: string, description: string, run: (projectId: string, id: string, flags: AdminFlags) => Promise<void>) =>
    withAdminOptions(webhooks.command(name).description(description).argument('<project-id>').argument('<webhook-id>')).action(run);

  withAdminOptions(webhooks.command('list').description("List a project's webhooks.").argument('<project-id>')).action(
    async (projectId: string, flags: AdminFlags) => {
      const list = await withAdmin(flags, (a) => a.listWebhooks(projectId));
      if (flags.json) console.log(JSON.stringify(list));
      else printTable(list, ['id', 'name', 'url', 'enabled', 'health_status', 'last_modified']);
    },
  );

  withAdminOptions(
    webhooks
      .command('add')
      .description('Register a webhook. Without --triggers it is notified of every event of its slot.')
      .argument('<project-id>')
      .argument('<url>', 'where notifications are POSTed')
      .requiredOption('--name <name>', 'display name')
      .option('--secret <secret>', 'signature secret (default: a random one, printed once)')
      .addOption(new Option('--slot <slot>', 'delivery slot').choices(deliverySlots).default('published'))
      .option('--triggers <json>', 'delivery_triggers as JSON (Management API shape); overrides --slot')
      .option('--header <key=value>', 'custom header, repeatable', collectHeader)
      .option('--disabled', 'register it disabled'),
  ).action(
    async (
      projectId: string,
      url: string,
      flags: AdminFlags & {
        name: string;
        secret?: string;
        slot: string;
        triggers?: string;
        header?: { key: string; value: string }[];
        disabled?: boolean;
      },
    ) => {
      const secret = flags.secret ?? randomBytes(32).toString('base64');
      const triggers: unknown = flags.triggers === undefined ? { slot: flags.slot, events: 'all' } : JSON.parse(flags.triggers);
      const added = await withAdmin(flags, (a) =>
        a.addWebhook(projectId, {
          name: flags.name,
          url,
          secret,
          headers: flags.header ?? [],
          enabled: flags.disabled !== true,
          delivery_triggers: triggers,
        }),
      );
      printWebhook(added, flags);
      if (!flags.json && flags.secret === undefined) console.log(`\nSecret (verify signatures with it): ${secret}`);
    },
  );

  simple('get', 'Show a webhook.', async (p, id, flags) => printWebhook(await withAdmin(flags, (a) => a.getWebhook(p, id)), flags));
  simple('enable', 'Enable a webhook: later changes are notified.', async (p, id, flags) => {
    await withAdmin(flags, (a) => a.setWebhookEnabled(p, id, true));
    console.log(`Enabled webhook ${id}.`);
  });
  simple('disable', 'Disable a webhook: what is unsent is dropped and changes are ignored.', async (p, id, flags) => {
    await withAdmin(flags, (a) => a.setWebhookEnabled(p, id, false));
    console.log(`Disabled webhook ${id}.`);
  });
  simple('delete', 'Delete a webhook and its queue.', async (p, id, flags) => {
    await withAdmin(flags, (a) => a.deleteWebhook(p, id));
    console.log(`Deleted webhook ${id}.`);
  });
  simple('reset', 'Reset a failing or dead webhook: the last failed notification is sent again.', async (p, id, flags) => {
    await withAdmin(flags, (a) => a.resetWebhook(p, id));
    console.log(`Reset webhook ${id}.`);
  });

  withAdminOptions(
    webhooks
      .command('set-url')
      .description("Change a webhook's URL (revives a dead webhook).")
      .argument('<project-id>')
      .argument('<webhook-id>')
      .argument('<url>'),
  ).action(async (projectId: string, id: string, url: string, flags: AdminFlags) => {
    printWebhook(await withAdmin(flags, (a) => a.setWebhookUrl(projectId, id, url)), flags);
  });

  withAdminOptions(
    webhooks
      .command('notifications')
      .description("A webhook's notifications of the last 3 days, newest first (the debug list).")
      .argument('<project-id>')
      .argument('<webhook-id>')
      .addOption(
        new Option('--filter <filter>', 'all, failed at any time, or failing now')
          .choices(['all', 'failed', 'failing'])
          .default('all'),
      ),
  ).action(async (projectId: string, id: string, flags: AdminFlags & { filter: string }) => {
    const list = await withAdmin(flags, (a) => a.webhookNotifications(projectId, id, flags.filter));
    if (flags.json) console.log(JSON.stringify(list));
    else
      printTable(
        list.map((n) => ({ ...n, excerpt: (n.last_response_excerpt ?? '').slice(0, 40).replace(/\s+/g, ' ') })),
        ['id', 'created_at', 'state', 'attempts', 'last_attempt_at', 'last_response_status', 'excerpt'],
      );
  });
}
