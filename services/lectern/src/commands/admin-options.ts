import type { Command } from 'commander';
import { connectAdmin } from '../admin/connect.ts';
import type { AdminPort } from '../admin/admin-port.ts';

export interface AdminFlags {
  dataDir?: string;
  databaseUrl?: string;
  url?: string;
  token?: string;
  json?: boolean;
}

/** The options every project/keys command shares: where the projects live, and --json. */
export function withAdminOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'data directory of the embedded server [env LECTERN_DATA_DIR, default .lectern-data]')
    .option('--database-url <url>', 'work on this PostgreSQL database [env LECTERN_DATABASE_URL]')
    .option('--url <url>', 'admin API of a remote server: its Management URL [env LECTERN_URL]')
    .option('--token <token>', 'operator token of that server [env LECTERN_OPERATOR_TOKEN]')
    .option('--json', 'print JSON instead of text');
}

/** Runs `work` against the admin port the flags select, and always closes it. */
export async function withAdmin<T>(flags: AdminFlags, work: (admin: AdminPort) => Promise<T>): Promise<T> {
  const env = process.env;
  const admin = await connectAdmin({
    dataDir: flags.dataDir ?? env['LECTERN_DATA_DIR'] ?? '.lectern-data',
    databaseUrl: flags.databaseUrl ?? (env['LECTERN_DATABASE_URL'] || undefined),
    url: flags.url ?? (env['LECTERN_URL'] || undefined),
    token: flags.token ?? (env['LECTERN_OPERATOR_TOKEN'] || undefined),
    // Where people's links point when the CLI works on the store (no server to ask): the public
    // URL, else the Management port `lectern start` would take (0: a free one, so unknown).
    managementPublicUrl:
      env['LECTERN_MANAGEMENT_PUBLIC_URL'] ||
      (/^[1-9]\d*$/.test(env['LECTERN_PORT_BASE'] ?? '') ? `http://localhost:${env['LECTERN_PORT_BASE']}` : undefined),
  });
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}

/** Prints rows as an aligned text table. */
export function printTable(rows: readonly Record<string, unknown>[], columns: readonly string[]): void {
  if (rows.length === 0) {
    console.log('(none)');
    return;
  }
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(line(columns.map((c) => c.toUpperCase())));
  for (const r of rows) console.log(line(columns.map((c) => cell(r[c]))));
}
