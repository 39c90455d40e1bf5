import { Command, CommanderError } from 'commander';
import { ConfigError } from '@lectern/config';
import { AdminError } from './admin/admin-port.ts';
import { registerIndex } from './commands/index.ts';
import { registerKeys } from './commands/keys.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerProject } from './commands/project.ts';
import { registerWebhooks } from './commands/webhooks.ts';
import { registerStart } from './commands/start.ts';
import { registerEnvironments } from './commands/environments.ts';
import { registerRoles, registerUsers } from './commands/users.ts';

/** What to try next, by Management error_code, for the errors a CLI user meets most. */
const hints: Record<number, string> = {
  110: 'List projects with: lectern project list',
  112: 'List keys with: lectern keys list <project id>',
  409: 'Replace the existing key with: lectern keys regenerate <key id> (find it with lectern keys list <project id>)',
  115: 'List the users with: lectern users list <project id>',
  233: 'Mark another environment of the project as production first (Management API mark-environment-as-production), or delete its clones.',
  9: 'The server was restarted or the token is wrong; run the command on the machine that runs the server, or pass --token.',
};

export function buildProgram(): Command {
  const program = new Command('lectern')
    .description('Lectern: a self-hostable content platform that speaks the Kontent.ai APIs.')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerStart(program);
  registerProject(program);
  registerKeys(program);
  registerWebhooks(program);
  registerEnvironments(program);
  registerUsers(program);
  registerRoles(program);
  registerIndex(program);
  registerMcp(program);
  return program;
}

export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof AdminError) {
      console.error(`error: ${error.message}`);
      for (const p of error.problems) console.error(`  - ${p}`);
      const hint = hints[error.errorCode];
      if (hint) console.error(hint);
      return 1;
    }
    console.error(`error: ${(error as Error).message}`);
    return 1;
  }
}
