import { freePort } from '../engines/postgres.ts';
import { startServiceProcess, waitUntilReady, type ServiceProcess } from './service-process.ts';

/** Where the services find the engines, and where they listen. */
export interface ClusterOptions {
  readonly databaseUrl: string;
  readonly kafkaBrokers: string;
  readonly kafkaTopic: string;
  readonly s3: {
    readonly endpoint: string;
    readonly accessKey: string;
    readonly secretKey: string;
    readonly bucket: string;
  };
  readonly operatorToken: string;
  /**
   * The search engine (OpenSearch) holding the delivery index (LECTERN_DELIVERY_INDEX=opensearch,
   * the cluster shape's default); without it the services use the SQL index.
   */
  readonly searchUrl?: string;
  readonly host?: string;
  readonly ports: {
    readonly management: number;
    /** The Management process's second listener: the assets origin (default: a free port). */
    readonly assets?: number;
    readonly indexer: number;
    /** More indexer processes in the same consumer group (`indexer-2`, …), for horizontal scaling. */
    readonly extraIndexers?: readonly number[];
    /** One Delivery process per entry, each with its Delivery and Preview port. */
    readonly deliveries: readonly { readonly delivery: number; readonly preview: number }[];
    /** The webhook worker's /healthz /readyz /metrics port; none: no webhooks process. */
    readonly webhooks?: number;
    /** One GraphQL process per entry (`graphql-1`, …). */
    readonly graphqls?: readonly number[];
    /** The Smart Recommendations API process, when given. */
    readonly recommendations?: number;
  };
  /** Lets the webhooks process reach loopback and private addresses (receivers in tests). */
  readonly isWebhooksPrivateAllowed?: boolean;
  /** Environment added to every GraphQL process (e.g. its limits). */
  readonly graphqlEnv?: Readonly<Record<string, string>>;
  readonly logLevel?: string;
  /** Environment added to every process (e.g. limits turned off for a write load). */
  readonly env?: Readonly<Record<string, string>>;
  readonly onLine?: (name: string, line: string) => void;
}

export interface RunningCluster {
  readonly managementUrl: string;
  /** The assets origin (asset binaries), the Management process's second port. */
  readonly assetsUrl: string;
  readonly indexerUrl: string;
  /** Every indexer process, the first one included. */
  readonly indexerUrls: readonly string[];
  readonly deliveries: readonly { readonly name: string; readonly deliveryUrl: string; readonly previewUrl: string }[];
  /** The webhooks process's URL, when one was started. */
  readonly webhooksUrl: string | null;
  readonly graphqls: readonly { readonly name: string; readonly url: string }[];
  /** The Smart Recommendations API (null when not started). */
  readonly recommendationsUrl: string | null;
  readonly processes: readonly ServiceProcess[];
  /** The kept output of every process, each line prefixed with its name. */
  logs(): string;
  /** SIGTERM to every process at once; resolves with each one's exit code. */
  stop(): Promise<Record<string, number | null>>;
}

/**
 * Starts the cluster shape's services, each as its own process through its `main.ts`: Management
 * (and the outbox relay to Kafka), the indexer and the Delivery processes, all at once (their
 * migrations serialize in PostgreSQL), then waits until every one is ready. On failure the
 * processes already started are stopped before the error is thrown.
 */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const host = options.host ?? '127.0.0.1';
  const url = (port: number) => `http://${host}:${port}`;
  const common = {
    LECTERN_DATABASE_URL: options.databaseUrl,
    LECTERN_HOST: host,
    LECTERN_LOG_LEVEL: options.logLevel ?? 'info',
    ...options.env,
  };
  const kafka = { LECTERN_KAFKA_BROKERS: options.kafkaBrokers, LECTERN_KAFKA_TOPIC: options.kafkaTopic };
  const deliveryIndex: Record<string, string> =
    options.searchUrl === undefined || options.searchUrl === ''
      ? { LECTERN_DELIVERY_INDEX: 'sql' }
      : { LECTERN_DELIVERY_INDEX: 'opensearch', LECTERN_SEARCH_URL: options.searchUrl };
  const managementUrl = url(options.ports.management);
  const assetsUrl = url(options.ports.assets ?? (await freePort()));
  const started: { process: ServiceProcess; readyUrl: string }[] = [];
  const start = (
    name: string,
    service: 'management' | 'indexer' | 'delivery' | 'webhooks' | 'graphql' | 'recommendations',
    env: Record<string, string>,
    readyUrl: string,
  ) => started.push({ process: startServiceProcess({ name, service, env, onLine: options.onLine }), readyUrl });

  start(
    'management',
    'management',
    {
      ...common,
      ...kafka,
      LECTERN_PORT: String(options.ports.management),
      LECTERN_ASSETS_PORT: new URL(assetsUrl).port,
      LECTERN_OPERATOR_TOKEN: options.operatorToken,
      LECTERN_S3_ENDPOINT: options.s3.endpoint,
      LECTERN_S3_BUCKET: options.s3.bucket,
      LECTERN_S3_ACCESS_KEY: options.s3.accessKey,
      LECTERN_S3_SECRET_KEY: options.s3.secretKey,
    },
    managementUrl,
  );
  const indexerPorts = [options.ports.indexer, ...(options.ports.extraIndexers ?? [])];
  indexerPorts.forEach((port, i) =>
    start(
      i === 0 ? 'indexer' : `indexer-${i + 1}`,
      'indexer',
      {
        ...common,
        ...kafka,
        ...deliveryIndex,
        LECTERN_PORT: String(port),
        LECTERN_ASSETS_BASE_URL: `${assetsUrl}/assets`,
      },
      url(port),
    ),
  );
  const deliveries = options.ports.deliveries.map((p, i) => {
    const name = `delivery-${i + 1}`;
    const env = {
      ...common,
      ...deliveryIndex,
      LECTERN_DELIVERY_PORT: String(p.delivery),
      LECTERN_PREVIEW_PORT: String(p.preview),
    };
    start(name, 'delivery', env, url(p.delivery));
    return { name, deliveryUrl: url(p.delivery), previewUrl: url(p.preview) };
  });
  const graphqls = (options.ports.graphqls ?? []).map((port, i) => {
    const name = `graphql-${i + 1}`;
    start(
      name,
      'graphql',
      { ...common, ...deliveryIndex, ...options.graphqlEnv, LECTERN_GRAPHQL_PORT: String(port) },
      url(port),
    );
    return { name, url: url(port) };
  });

  const webhooksPort = options.ports.webhooks;
  if (webhooksPort !== undefined)
    start(
      'webhooks',
      'webhooks',
      {
        ...common,
        ...kafka,
        LECTERN_PORT: String(webhooksPort),
        LECTERN_WEBHOOKS_ALLOW_PRIVATE: String(options.isWebhooksPrivateAllowed ?? false),
      },
      url(webhooksPort),
    );
  const recommendationsPort = options.ports.recommendations;
  if (recommendationsPort !== undefined)
    start(
      'recommendations',
      'recommendations',
      { ...common, ...deliveryIndex, LECTERN_PORT: String(recommendationsPort) },
      url(recommendationsPort),
    );

  const processes = started.map((s) => s.process);
  const stop = async () => {
    const codes = await Promise.all(processes.map((p) => p.stop()));
    return Object.fromEntries(processes.map((p, i) => [p.name, codes[i] ?? null]));
  };
  try {
    await Promise.all(started.map((s) => waitUntilReady(s.process, s.readyUrl, 120_000)));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    managementUrl,
    assetsUrl,
    indexerUrl: url(options.ports.indexer),
    indexerUrls: indexerPorts.map(url),
    deliveries,
    webhooksUrl: webhooksPort === undefined ? null : url(webhooksPort),
    graphqls,
    recommendationsUrl: recommendationsPort === undefined ? null : url(recommendationsPort),
    processes,
    logs: () => processes.flatMap((p) => p.lines.map((l) => `[${p.name}] ${l}`)).join('\n'),
    stop,
  };
}
