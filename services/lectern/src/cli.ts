import { isSupervisedChild, superviseSelf } from '@lectern/http-kit/supervisor';

/**
 * The `lectern` command's entry. `lectern start` runs the server in a child process under a
 * supervisor that can stop it even when its event loop is stuck (docs/operations.md); this file
 * imports nothing else before that choice, so the supervising process stays small (no service
 * code loaded). Every other command, and the supervised server, loads the program.
 */
if (process.argv[2] === 'start' && !isSupervisedChild()) {
  await superviseSelf({ name: 'lectern' });
} else {
  const { runCli } = await import('./program.ts');
  const code = await runCli(process.argv.slice(2));
  // `start` keeps running; everything else exits with its status.
  if (code !== 0 || process.argv[2] !== 'start') process.exit(code);
}
