import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const mainOf = (service: string) => fileURLToPath(new URL(`../../services/${service}/src/main.ts`, import.meta.url));

/** Runs a service's main.ts to completion with only the given environment (plus PATH). */
function run(service: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [mainOf(service), ...args], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, out })),
  );
}

const required = {
  management: ['LECTERN_DATABASE_URL', 'LECTERN_S3_ENDPOINT', 'LECTERN_KAFKA_BROKERS', 'LECTERN_OPERATOR_TOKEN'],
  indexer: ['LECTERN_DATABASE_URL', 'LECTERN_KAFKA_BROKERS', 'LECTERN_ASSETS_BASE_URL'],
  delivery: ['LECTERN_DATABASE_URL'],
};

describe('the cluster services’ main.ts, before any engine', () => {
  for (const [service, settings] of Object.entries(required)) {
    it(`${service}: --help lists the settings; missing ones are all named (exit 2)`, async () => {
      const help = await run(service, ['--help']);
      expect(help.code).toBe(0);
      for (const env of [...settings, 'LECTERN_LOG_LEVEL']) expect(help.out).toContain(env);

      const bare = await run(service, []);
      expect(bare.code).toBe(2);
      for (const env of settings) expect(bare.out).toContain(`${env}:`);
      expect(bare.out).toContain('--help');
    });
  }

  it('names the setting to check when the database cannot be reached (exit 1)', async () => {
    const result = await run('delivery', [], {
      LECTERN_DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
      LECTERN_DELIVERY_PORT: '0',
      LECTERN_PREVIEW_PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.out).toContain('check LECTERN_DATABASE_URL');
  });

  it('refuses a malformed setting with what it got and what it wants', async () => {
    const result = await run('indexer', [], {
      LECTERN_DATABASE_URL: 'postgres://x@127.0.0.1:9/none',
      LECTERN_KAFKA_BROKERS: 'not a broker',
      LECTERN_ASSETS_BASE_URL: 'http://127.0.0.1:4400/assets',
    });
    expect(result.code).toBe(2);
    expect(result.out).toContain('LECTERN_KAFKA_BROKERS: each broker must be host:port');
  });
});
