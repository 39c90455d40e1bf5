import type { Command} from 'commander';
import { Option } from 'commander';
import { apiKeyKinds, type ApiKeyKind } from '@lectern/core';
import type { IssuedKeyJson } from '../admin/admin-port.ts';
import { printTable, withAdmin, withAdminOptions, type AdminFlags } from './admin-options.ts';

function printIssued(issued: IssuedKeyJson, flags: AdminFlags, verb: string): void {
  if (flags.json) {
    console.log(JSON.stringify(issued));
    return;
  }
  console.log(
    `${verb} ${issued.kind} key ${issued.id}${issued.user_email ? ` for ${issued.user_email}` : ''}${issued.expires_at ? `, valid until ${issued.expires_at}` : ''}.`,
  );
  console.log(
    `\n  ${issued.api_key}\n\nThis is the only time the key is shown. Send it as: Authorization: Bearer <key>`,
  );
}

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description(
      'Manage API keys: management (per user, 4,000 days), delivery and preview (primary, secondary), recommendations.',
    );

  withAdminOptions(
    keys.command('list').description("List a project's keys (never their values).").argument('<project-id>'),
  ).action(async (projectId: string, flags: AdminFlags) => {
    const list = await withAdmin(flags, (a) => a.listKeys(projectId));
    if (flags.json) console.log(JSON.stringify(list));
    else printTable(list, ['id', 'kind', 'status', 'user_email', 'created_at', 'expires_at']);
  });

  withAdminOptions(
    keys
      .command('create')
      .description(
        'Issue a key. A project has one active key per kind (per user for management keys); use regenerate to replace one.',
      )
      .argument('<project-id>')
      .addOption(new Option('--kind <kind>', 'key kind').choices(apiKeyKinds).makeOptionMandatory())
      .option('--user <email>', 'management keys: the user the key acts as (created if new)')
      .option('--validity-days <days>', 'management keys: days until expiry (default 4000)', (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new Error('--validity-days takes a whole number of days, at least 1.');
        return n;
      }),
  ).action(
    async (projectId: string, flags: AdminFlags & { kind: ApiKeyKind; user?: string; validityDays?: number }) => {
      const issued = await withAdmin(flags, (a) =>
        a.createKey(projectId, {
          kind: flags.kind,
          ...(flags.user === undefined ? {} : { userEmail: flags.user }),
          ...(flags.validityDays === undefined ? {} : { validityDays: flags.validityDays }),
        }),
      );
      printIssued(issued, flags, 'Created');
    },
  );

  withAdminOptions(
    keys
      .command('regenerate')
      .description('Revoke a key and issue its replacement (same project, kind and user).')
      .argument('<key-id>'),
  ).action(async (keyId: string, flags: AdminFlags) => {
    printIssued(
      await withAdmin(flags, (a) => a.regenerateKey(keyId)),
      flags,
      'Regenerated: revoked the old key and issued',
    );
  });

  withAdminOptions(
    keys.command('revoke').description('Revoke a key without replacing it.').argument('<key-id>'),
  ).action(async (keyId: string, flags: AdminFlags) => {
    const revoked = await withAdmin(flags, (a) => a.revokeKey(keyId));
    if (flags.json) console.log(JSON.stringify(revoked));
    else console.log(`Revoked ${revoked.kind} key ${revoked.id}. Requests with it are now refused.`);
  });
}
