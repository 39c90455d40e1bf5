/**
 * Endpoints that the engine global setups (`test/engines/setup-*.ts`) hand to tests through
 * vitest's `provide`/`inject`. An empty string means the engine is unavailable outside CI and
 * the tests that need it skip themselves.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the test PostgreSQL server. */
    postgresUrl: string;
    /** Bootstrap brokers of the test Kafka (KRaft, one node), comma-separated `host:port`. */
    kafkaBrokers: string;
    /** Base URL of the test search engine (OpenSearch 2.19, Elasticsearch-compatible REST API), no auth. */
    searchUrl: string;
    /** Base URL of the test S3-compatible server (MinIO), path-style addressing, region us-east-1. */
    s3Endpoint: string;
    /** Access key of the test S3 server's root user ('' when the server is unavailable). */
    s3AccessKey: string;
    /** Secret key of the test S3 server's root user ('' when the server is unavailable). */
    s3SecretKey: string;
    /**
     * Lectern's image built from this tree on the base made here (test/kube/setup-docker.ts), as
     * `lectern:t-<hash of its inputs>`; the `kube` project only ('' outside CI when Docker or the image
     * could not be made: the tests skip).
     */
    lecternImage: string;
  }
}

export {};
