import type { Command } from 'commander';
import type { AdminPort } from '../admin/admin-port.ts';
import { printTable, withAdmin, withAdminOptions, type AdminFlags } from './admin-options.ts';

const slug = (s: string) => s.trim().toLowerCase().replaceAll(/[\s_]+/g, '-');

/** Role ids for role names, codenames, slugs (content-creator) or ids; an unknown one says which exist. */
async function roleIds(admin: AdminPort, projectId: string, wanted: readonly string[]): Promise<string[]> {
  const roles = await admin.listRoles(projectId);
  return wanted.map((w) => {
    const found = roles.find((r) => r.id === w.toLowerCase() || slug(r.name) === slug(w) || r.codename === slug(w));
    if (!found)
      throw new Error(
        `Unknown role "${w}". Roles: ${roles.map((r) => slug(r.name)).join(', ')} (see: lectern roles list ${projectId}).`,
      );
    return found.id;
  });
}

const collect = (value: string, previous: string[] = []) => [...previous, value];
const userColumns = ['email', 'roles', 'is_active', 'source', 'user_id'];

function printUsers(users: readonly { roles: string[] }[], flags: AdminFlags): void {
  if (flags.json) console.log(JSON.stringify(users));
  else printTable(users.map((u) => ({ ...u, roles: u.roles.join(', ') })), userColumns);
}

export function registerUsers(program: Command): void {
  const users = program
    .command('users')
    .description("The people of an environment and their roles (what their management keys may change).");

  withAdminOptions(
    users
      .command('list')
      .description('List the users invited to the environment and the owners of its management keys.')
      .argument('<project-id>'),
  ).action(async (projectId: string, flags: AdminFlags) => {
    printUsers(await withAdmin(flags, (a) => a.listUsers(projectId)), flags);
  });

  withAdminOptions(
    users
      .command('invite')
      .description(
        'Invite a user (created when new) in one or more roles, in every collection and language, and print their invitation link (valid 7 days): there they choose a password and sign in to the editor (/app). For API access, issue them a key: lectern keys create <project id> --kind management --user <email>',
      )
      .argument('<project-id>')
      .argument('<email>')
      .requiredOption('--role <role>', 'project-manager, developer, content-creator or reviewer (repeatable)', collect),
  ).action(async (projectId: string, email: string, flags: AdminFlags & { role: string[] }) => {
    const user = await withAdmin(flags, async (a) =>
      a.inviteUser(projectId, { email, roles: await roleIds(a, projectId, flags.role) }),
    );
    if (flags.json) console.log(JSON.stringify(user));
    else {
      console.log(`Invited ${user.email} as ${user.roles.join(', ')}.`);
      console.log(`Invitation link (send it to them; valid until ${user.invitation_expires_at}):`);
      console.log(user.invitation_url);
    }
  });

  withAdminOptions(
    users
      .command('reset-link')
      .description(
        "Print a one-time password reset link for an invited user (valid 1 hour): there they choose a new password; it ends their other sessions. For when no SMTP server is set (LECTERN_SMTP_URL), or they cannot reach their e-mail.",
      )
      .argument('<project-id>')
      .argument('<email>'),
  ).action(async (projectId: string, email: string, flags: AdminFlags) => {
    const link = await withAdmin(flags, (a) => a.personLink(projectId, email, 'reset'));
    if (flags.json) console.log(JSON.stringify(link));
    else {
      console.log(`Password reset link for ${link.email} (send it to them; valid until ${link.expires_at}):`);
      console.log(link.url);
    }
  });

  withAdminOptions(
    users
      .command('roles')
      .description("Replace an invited user's roles (in every collection and language).")
      .argument('<project-id>')
      .argument('<email>')
      .requiredOption('--role <role>', 'project-manager, developer, content-creator or reviewer (repeatable)', collect),
  ).action(async (projectId: string, email: string, flags: AdminFlags & { role: string[] }) => {
    const user = await withAdmin(flags, async (a) =>
      a.setUserRoles(projectId, email, await roleIds(a, projectId, flags.role)),
    );
    if (flags.json) console.log(JSON.stringify(user));
    else console.log(`${user.email} is now ${user.roles.join(', ')}.`);
  });
}

export function registerRoles(program: Command): void {
  const roles = program.command('roles').description('The roles of an environment and what each may change.');
  withAdminOptions(
    roles.command('list').description('List the roles with their permissions.').argument('<project-id>'),
  ).action(async (projectId: string, flags: AdminFlags) => {
    const list = await withAdmin(flags, (a) => a.listRoles(projectId));
    if (flags.json) console.log(JSON.stringify(list));
    else
      printTable(
        list.map((r) => ({ ...r, role: slug(r.name), permissions: r.permissions.join(', ') || '(read only)' })),
        ['role', 'name', 'permissions', 'id'],
      );
  });
}
