/**
 * Endpoints that the engine global setups (`test/engines/setup-*.ts`) hand to tests through
 * vitest's `provide`/`inject`. An empty string means the engine is unavailable outside CI and
 * the tests that need it skip themselves.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the test PostgreSQL server. */
    postgresUrl: string;
  }
}

export {};
