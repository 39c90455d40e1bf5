import { execFile as execFileCb, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runDir, tailOf, type RunningEngine } from './engine.ts';

const execFile = promisify(execFileCb);

/** The directory holding initdb, pg_ctl and postgres from Debian's packages. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const dir = join(root, v, 'bin');
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
}

/** One port nobody listens on now. For several at once use `freePorts`, which never repeats one. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/** A tuple of `N` port numbers. */
type Ports<N extends number, T extends number[] = []> = T['length'] extends N ? T : Ports<N, [...T, number]>;

/**
 * `count` distinct free ports on 127.0.0.1. Every listener stays open until all are bound, so the
 * kernel cannot hand the same ephemeral port out twice (it did once, and Kafka refused to start
 * with its broker and controller listeners on one port).
 */
export async function freePorts<N extends number>(count: N): Promise<Ports<N>> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            if (typeof address === 'object' && address) resolve(address.port);
            else reject(new Error('no port'));
          });
        }),
      );
    }
    return ports as Ports<N>;
  } finally {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  }
}

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1 in a temporary directory: initdb, pg_ctl start,
 * trust authentication for user `lectern`. PostgreSQL refuses to run as root, so as root the
 * server runs as the `postgres` system user that Debian's package creates.
 * `host`: the address to listen on and name in the endpoint instead (test/kube: the node's address
 * pods reach); trust is then extended to every client address, so use one reachable only here.
 */
export async function startPostgres(options: { isDurable?: boolean; host?: string } = {}): Promise<RunningEngine> {
  const host = options.host ?? '127.0.0.1';
  const bin = postgresBinDir();
  const dir = runDir('postgres');
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const isRoot = process.getuid?.() === 0;
  if (isRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const run = (cmd: string, args: string[]) =>
    isRoot ? execFile('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : execFile(join(bin, cmd), args);
  await run('initdb', ['-D', data, '-U', 'lectern', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  if (host !== '127.0.0.1') appendFileSync(join(data, 'pg_hba.conf'), 'host all all 0.0.0.0/0 trust\n');
  const port = await freePort();
  // Tests trade durability for speed; `isDurable` keeps PostgreSQL's defaults (what a deployment
  // runs), for benchmarks of writes.
  const durability = options.isDurable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = `-p ${port} -h ${host} -k ${dir}${durability} -c max_connections=200`;
  try {
    await run('pg_ctl', ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '60', 'start']);
  } catch (error) {
    throw new Error(`pg_ctl start failed (${(error as Error).message}); log ${log}:\n${tailOf(log)}`, { cause: error });
  }
  return {
    endpoint: `postgres://lectern@${host}:${port}/postgres`,
    dir,
    async stop() {
      await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    },
  };
}

/** Numeric uid or gid of a system user. */
function idOf(flag: '-u' | '-g', name: string): number {
  return Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
}
const uidOf = (name: string) => idOf('-u', name);
const gidOf = (name: string) => idOf('-g', name);
