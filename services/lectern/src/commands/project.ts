import type { Command } from 'commander';
import { printTable, withAdmin, withAdminOptions, type AdminFlags } from './admin-options.ts';

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`--secure-access takes "on" or "off", not "${value}".`);
}

export function registerProject(program: Command): void {
  const project = program
    .command('project')
    .alias('projects')
    .description('Create, list, update and delete projects (environments).');

  withAdminOptions(project.command('list').description('List every project.')).action(async (flags: AdminFlags) => {
    const projects = await withAdmin(flags, (a) => a.listProjects());
    if (flags.json) console.log(JSON.stringify(projects));
    else printTable(projects, ['id', 'name', 'environment', 'secure_access', 'created_at']);
  });

  withAdminOptions(
    project
      .command('create')
      .description(
        'Create a project. Then give it keys: lectern keys create <project id> --kind management --user you@example.com',
      )
      .argument('<name>', 'display name, 1 to 200 characters')
      .option('--environment <name>', 'environment display name', 'Production')
      .option('--secure-access', 'require a delivery key for published content (SPEC 5)'),
  ).action(async (name: string, flags: AdminFlags & { environment: string; secureAccess?: boolean }) => {
    const created = await withAdmin(flags, (a) =>
      a.createProject({ name, environment: flags.environment, ...(flags.secureAccess ? { secureAccess: true } : {}) }),
    );
    if (flags.json) console.log(JSON.stringify(created));
    else
      console.log(
        `Created project "${created.name}": ${created.id}\nNext: lectern keys create ${created.id} --kind management --user <your e-mail>`,
      );
  });

  withAdminOptions(
    project
      .command('update')
      .description('Rename a project or switch Delivery secure access.')
      .argument('<project-id>')
      .option('--name <name>', 'new display name')
      .option('--secure-access <on|off>', 'require a delivery key for published content'),
  ).action(async (id: string, flags: AdminFlags & { name?: string; secureAccess?: string }) => {
    if (flags.name === undefined && flags.secureAccess === undefined) {
      throw new Error('Nothing to change: pass --name and/or --secure-access on|off.');
    }
    const updated = await withAdmin(flags, (a) =>
      a.updateProject(id, {
        ...(flags.name === undefined ? {} : { name: flags.name }),
        ...(flags.secureAccess === undefined ? {} : { secureAccess: onOff(flags.secureAccess) }),
      }),
    );
    if (flags.json) console.log(JSON.stringify(updated));
    else printTable([updated], ['id', 'name', 'environment', 'secure_access']);
  });

  withAdminOptions(
    project
      .command('delete')
      .description(
        'Delete an environment with everything in it: content, assets, model, keys, webhooks. A production environment only when no other environment was cloned from its project.',
      )
      .argument('<project-id>')
      .option('--yes', 'confirm: the deletion cannot be undone'),
  ).action(async (id: string, flags: AdminFlags & { yes?: boolean }) => {
    if (!flags.yes)
      throw new Error(
        `This deletes project ${id} and everything in it; it cannot be undone. Run again with --yes to confirm.`,
      );
    await withAdmin(flags, (a) => a.deleteProject(id));
    if (flags.json) console.log(JSON.stringify({ id, deleted: true }));
    else console.log(`Deleted project ${id}.`);
  });

  withAdminOptions(
    project
      .command('tracking')
      .description(
        'Show or set how recommendation visits are tracked (SPEC 4.5): automatic (each recommend/items call records ' +
          'a visit of its current item) or manual (only track/visit, track/conversion and track/portion do).',
      )
      .argument('<project-id>')
      .argument('[mode]', 'automatic or manual'),
  ).action(async (id: string, mode: string | undefined, flags: AdminFlags) => {
    if (mode !== undefined && mode !== 'automatic' && mode !== 'manual')
      throw new Error(`The tracking mode is "automatic" or "manual", not "${mode}".`);
    const result = await withAdmin(flags, (a) => a.recsTracking(id, mode === undefined ? undefined : mode === 'manual'));
    if (flags.json) console.log(JSON.stringify(result));
    else console.log(`Recommendation visits of project ${id} are tracked ${result.manual_tracking ? 'manually' : 'automatically'}.`);
  });
}
