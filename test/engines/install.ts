import { installEngine, installableEngines, type InstallableEngine } from './engine-install.ts';

/**
 * Installs the test engines that come from Maven Central and the Go module proxy, idempotently:
 *   node test/engines/install.ts [kafka] [opensearch] [minio]     (no argument: all of them)
 * System packages (Java, Maven, Go, PostgreSQL) are scripts/lib/engines.sh's job.
 */
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(installableEngines as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`unknown engine(s): ${unknown.join(', ')}; known: ${installableEngines.join(', ')}`);
  process.exit(2);
}
const engines = requested.length > 0 ? (requested as InstallableEngine[]) : [...installableEngines];
for (const engine of engines) {
  const began = Date.now();
  await installEngine(engine);
  console.log(`[engines] ${engine}: install step took ${((Date.now() - began) / 1000).toFixed(1)} s`);
}
