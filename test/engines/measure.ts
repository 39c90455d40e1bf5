import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { residentMiB, type RunningEngine } from './engine.ts';
import { startKafka } from './kafka.ts';
import { startMinio } from './minio.ts';
import { startOpenSearch } from './opensearch.ts';
import { startPostgres } from './postgres.ts';

/**
 * Prints, per engine, the time from start to ready and the resident memory of its server process
 * right after readiness and after an idle period:
 *   node test/engines/measure.ts [idleSeconds=30]
 * Engines start one at a time so that each start has the machine to itself. Install them first.
 */
const idleSeconds = Number(process.argv[2] ?? 30);
const engines: [string, () => Promise<RunningEngine>][] = [
  ['PostgreSQL', startPostgres],
  ['Kafka', startKafka],
  ['OpenSearch', startOpenSearch],
  ['MinIO', startMinio],
];

const rows: string[][] = [['engine', 'start to ready', 'RSS at ready', `RSS after ${idleSeconds} s idle`]];
for (const [name, start] of engines) {
  const began = Date.now();
  const engine = await start();
  const startMs = Date.now() - began;
  const atReady = residentMiB(engine.pid);
  await sleep(idleSeconds * 1000);
  const idle = residentMiB(engine.pid);
  await engine.stop();
  if (engine.dir) rmSync(engine.dir, { recursive: true, force: true });
  const mib = (value: number | undefined) => (value === undefined ? 'n/a' : `${value} MiB`);
  rows.push([name, `${(startMs / 1000).toFixed(1)} s`, mib(atReady), mib(idle)]);
}
const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
