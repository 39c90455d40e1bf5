import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

/**
 * graphql ships a CommonJS build (`main`, what Node loads) and an ESM one (`module`, what Vite
 * would pick for our sources). graphql-jit, loaded by Node, gets the CommonJS one: resolve ours the
 * same way, so tests run one graphql instance as production does.
 */
const graphqlAsNode = {
  alias: [
    {
      find: /^graphql$/,
      replacement: createRequire(new URL('./services/graphql/package.json', import.meta.url)).resolve('graphql'),
    },
  ],
};

/**
 * A first ./scripts/test builds MinIO, then the Kubernetes programs (helm, kubeconform, promtool,
 * kustomize, the cluster; scripts/lib/kube.sh) in the background. It runs everything else first
 * (LECTERN_TEST_PHASE=first leaves both groups out), then, with MinIO built, the tests that need
 * it (LECTERN_TEST_PHASE=minio leaves the second group out), then, after the Go builds, the chart's
 * checks and the cluster tests.
 */
const afterMinio = [
  '**/*.s3.int.test.ts',
  '**/*.cluster.int.test.ts',
  'test/containers/**',
  'test/kube/image.kube.test.ts',
];
const afterGoBuilds = ['test/k8s/**', 'test/kube/cluster.kube.test.ts', 'test/kube/chart.kube.test.ts'];
const phase = process.env['LECTERN_TEST_PHASE'];
const exclude = [
  '**/node_modules/**',
  '**/.tools/**',
  '**/dist/**',
  ...(phase === 'first' ? afterMinio : []),
  ...(phase === 'first' || phase === 'minio' ? afterGoBuilds : []),
];
const roots = '{packages,services,test}/**';

/**
 * Test projects, by file name. Each integration project starts only the engine its files need,
 * in its global setup (test/engines/setup-*.ts), and hands the endpoint to the tests through
 * `inject` (keys in packages/testing/src/provided-context.ts):
 *
 *   *.test.ts              unit        no engine (beside the code, under src/; test/fuzz and test/lint)
 *   *.int.test.ts          int         PostgreSQL            inject('postgresUrl')
 *   *.kafka.int.test.ts    kafka       Kafka (KRaft), PostgreSQL  inject('kafkaBrokers'), postgresUrl
 *   *.search.int.test.ts   search      OpenSearch, PostgreSQL  inject('searchUrl'), postgresUrl
 *   *.s3.int.test.ts       s3          MinIO (S3 API)        inject('s3Endpoint'), s3AccessKey, s3SecretKey
 *   *.cluster.int.test.ts  cluster     PostgreSQL, Kafka, MinIO and OpenSearch (every service as its own process)
 *   test/containers/*.containers.test.ts containers  the four engines in containers (images built here), faults injected
 *   test/k8s/*.k8s.test.ts k8s         none: the Helm chart checked offline (helm, kubeconform, promtool)
 *   test/kube/*.kube.test.ts kube     Docker (a daemon started when none answers) and Lectern's image built from
 *                          this tree on the base made here, inject('lecternImage'); one file at a time;
 *                          a single-node Kubernetes built here: startKubeCluster (test/kube/cluster.ts; root)
 *   *.browser.int.test.ts  browser     headless Chromium (Debian's `chromium`, scripts/lib/browser.sh) driven by playwright-core
 *   *.test.ts(x) in apps/editor  editor  the editor app: component tests (happy-dom, by a
 *                          `// @vitest-environment happy-dom` comment) and `*.browser.test.ts` in
 *                          headless Chromium against `lectern start` (apps/editor/test/harness.ts);
 *                          its global setup builds the app when stale
 *
 * So an adapter test for bus-kafka is `*.kafka.int.test.ts`, for index-elasticsearch
 * `*.search.int.test.ts`, for blob-s3 `*.s3.int.test.ts`. Run one with `--project <name>`.
 */
const engineProjects = [
  {
    name: 'kafka',
    suffix: '.kafka.int.test.ts',
    setup: ['test/engines/setup-postgres.ts', 'test/engines/setup-kafka.ts'],
  },
  {
    name: 'search',
    suffix: '.search.int.test.ts',
    setup: ['test/engines/setup-postgres.ts', 'test/engines/setup-search.ts'],
  },
  { name: 's3', suffix: '.s3.int.test.ts', setup: ['test/engines/setup-s3.ts'] },
  { name: 'browser', suffix: '.browser.int.test.ts', setup: [] },
  {
    name: 'cluster',
    suffix: '.cluster.int.test.ts',
    setup: [
      'test/engines/setup-postgres.ts',
      'test/engines/setup-kafka.ts',
      'test/engines/setup-s3.ts',
      'test/engines/setup-search.ts',
    ],
  },
];

export default defineConfig({
  test: {
    projects: [
      {
        resolve: graphqlAsNode,
        test: {
          name: 'unit',
          include: ['{packages,services}/*/src/**/*.test.ts', 'test/{fuzz,lint}/*.test.ts'],
          exclude: [...exclude, '**/*.int.test.ts'],
        },
      },
      {
        resolve: graphqlAsNode,
        test: {
          name: 'k8s',
          include: ['test/k8s/*.k8s.test.ts'],
          exclude,
          testTimeout: 120_000,
        },
      },
      {
        resolve: graphqlAsNode,
        test: {
          name: 'kube',
          include: ['test/kube/*.kube.test.ts'],
          exclude,
          globalSetup: ['test/kube/setup-docker.ts'],
          // Containers and clusters share the machine's two cores: one file at a time.
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 900_000,
        },
      },
      {
        test: {
          name: 'int',
          include: [`${roots}/*.int.test.ts`],
          exclude: [...exclude, ...engineProjects.map((p) => `**/*${p.suffix}`)],
          globalSetup: ['test/engines/setup-postgres.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // React's JSX, compiled as the app's build does (automatic runtime).
        oxc: { jsx: { runtime: 'automatic' as const, importSource: 'react' } },
        test: {
          name: 'editor',
          include: ['apps/editor/**/*.test.{ts,tsx}'],
          exclude,
          globalSetup: ['apps/editor/test/setup-build.ts'],
          // A screen in Chromium answers within a second or so; on a busy machine, more.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Fault tests: the engines in containers of images built here (test/containers/), driven by
        // testcontainers against the local Docker daemon; one file at a time, faults take minutes.
        resolve: graphqlAsNode,
        test: {
          name: 'containers',
          include: ['test/containers/*.containers.test.ts'],
          exclude,
          globalSetup: ['test/containers/setup-containers.ts'],
          fileParallelism: false,
          // No Ryuk: its image would have to be pulled; every test stops its own containers.
          env: { TESTCONTAINERS_RYUK_DISABLED: 'true' },
          testTimeout: 300_000,
          hookTimeout: 900_000,
        },
      },
      ...engineProjects.map((p) => ({
        resolve: graphqlAsNode,
        test: {
          name: p.name,
          include: [`${roots}/*${p.suffix}`],
          exclude,
          globalSetup: p.setup,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      })),
    ],
  },
});
