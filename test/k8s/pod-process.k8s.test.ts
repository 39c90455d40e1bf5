import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { podProcessSpec, unreadEnv, type PodTemplateSpec } from './pod-process.ts';

// The checks the chart's process test relies on: what it refuses is what would fail in a cluster.
describe('a pod template turned into a local process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-pod-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const pod = (env: { name: string; value: string }[]): PodTemplateSpec => ({
    containers: [
      {
        command: ['node'],
        args: ['services/management/src/main.ts'],
        workingDir: '/app',
        env,
        ports: [{ name: 'http', containerPort: 4400 }],
        readinessProbe: { httpGet: { path: '/readyz', port: 'http' } },
        volumeMounts: [{ name: 'database', mountPath: '/var/run/secrets/lectern/database' }],
      },
    ],
    volumes: [{ name: 'database', secret: { secretName: 'db', items: [{ key: 'uri', path: 'url' }] } }],
  });
  const secrets = { db: { uri: 'postgres://u@h/d' } };

  it('writes mounted Secrets as files and points *_FILE at them', () => {
    const spec = podProcessSpec({
      name: 'm',
      pod: pod([{ name: 'LECTERN_DATABASE_URL_FILE', value: '/var/run/secrets/lectern/database/url' }]),
      secrets,
      dir,
    });
    expect(readFileSync(spec.env['LECTERN_DATABASE_URL_FILE']!, 'utf8')).toBe('postgres://u@h/d');
    expect(spec.readiness).toEqual({ path: '/readyz', port: 4400 });
  });

  it('refuses a Secret or a key that does not exist, as the kubelet would', () => {
    const p = pod([]);
    expect(() => podProcessSpec({ name: 'a', pod: p, secrets: {}, dir })).toThrow(/Secret db does not exist/);
    expect(() => podProcessSpec({ name: 'b', pod: p, secrets: { db: { url: 'x' } }, dir })).toThrow(/no key uri/);
  });

  it('names every env entry the service does not read: a misspelt name, *_FILE of a setting that is not secret', () => {
    const spec = podProcessSpec({
      name: 'c',
      pod: pod([
        { name: 'LECTERN_DATABASE_URL_FILE', value: '/var/run/secrets/lectern/database/url' },
        { name: 'LECTERN_S3_REGON', value: 'eu-west-1' },
        { name: 'LECTERN_PORT_FILE', value: '/x' },
        { name: 'LECTERN_OPERATOR_TOKEN_FILE', value: '/y' },
        { name: 'LECTERN_MANAGEMENT_PER_SECOND', value: '5' },
      ]),
      secrets,
      dir,
    });
    expect(unreadEnv(spec)).toEqual(['LECTERN_S3_REGON', 'LECTERN_PORT_FILE']);
  });
});
