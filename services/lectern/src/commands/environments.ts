import type { Command } from 'commander';
import type { AdminPort } from '../admin/admin-port.ts';
import type { TaskJson } from '../admin/environment-admin.ts';
import { withAdmin, withAdminOptions, type AdminFlags } from './admin-options.ts';

/**
 * Follows a background task until it ends, printing its progress (done/total) as it changes:
 * one rewritten line on a terminal, a line per change otherwise (logs, tests).
 */
export async function followTask(
  admin: AdminPort,
  taskId: string,
  options: { label: string; isQuiet: boolean; pollMs?: number },
): Promise<TaskJson> {
  const isTty = process.stderr.isTTY;
  let last = '';
  for (;;) {
    const task = await admin.getTask(taskId);
    const line = `${options.label}: ${task.progress.done}/${task.progress.total}`;
    if (!options.isQuiet && line !== last && task.progress.total > 0) {
      if (isTty) process.stderr.write(`\r${line}`);
      else console.error(line);
      last = line;
    }
    if (task.status === 'finished' || task.status === 'failed') {
      if (isTty && last !== '') process.stderr.write('\n');
      return task;
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 200));
  }
}

export function registerEnvironments(program: Command): void {
  const environments = program
    .command('environments')
    .alias('environment')
    .description('Copy environments (an environment is a project; its clones share its project group).');

  withAdminOptions(
    environments
      .command('clone')
      .description(
        'Copy an environment: content model, settings, items, variants and assets (files by reference), with a progress counter. Keys are not copied: the clone gets its own.',
      )
      .argument('<project-id>', 'the environment to copy (find it with: lectern project list)')
      .requiredOption('--name <name>', 'display name of the new environment, 1 to 200 characters')
      .option('--model-only', 'copy the content model and settings, not items and assets')
      .option('--user <email>', "owner of the clone's management key (default operator@lectern.local)")
      .option('--no-wait', 'start the copy and return; the server finishes it'),
  ).action(
    async (projectId: string, flags: AdminFlags & { name: string; modelOnly?: boolean; user?: string; wait: boolean }) => {
      await withAdmin(flags, async (admin) => {
        const cloned = await admin.cloneEnvironment(projectId, {
          name: flags.name,
          ...(flags.modelOnly ? { copyContent: false } : {}),
          ...(flags.user === undefined ? {} : { userEmail: flags.user }),
        });
        const task = flags.wait
          ? await followTask(admin, cloned.task_id, { label: 'Copying items and assets', isQuiet: flags.json === true })
          : await admin.getTask(cloned.task_id);
        if (flags.json) {
          console.log(JSON.stringify({ ...cloned, task }));
        } else {
          console.log(`Environment "${cloned.project.environment}" of "${cloned.project.name}": ${cloned.project.id}`);
          console.log(
            `  management key: ${cloned.management_api_key}\n  delivery key:   ${cloned.delivery_api_key}\n  preview key:    ${cloned.preview_api_key}`,
          );
          console.log('These keys are shown only now.');
          if (!flags.wait)
            console.log(`The copy runs on the server (task ${cloned.task_id}); its cloning state tells when it is done.`);
        }
        if (task.status === 'failed')
          throw new Error(
            `The copy failed (${task.error ?? 'unknown error'}). Delete the incomplete environment with: lectern projects delete ${cloned.project.id} --yes`,
          );
      });
    },
  );
}
