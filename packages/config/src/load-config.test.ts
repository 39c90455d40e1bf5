import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config.ts';
import { envBoolean, port } from './schemas.ts';

const settings = {
  port: { env: 'APP_PORT', schema: port, default: '4400', doc: 'HTTP port.' },
  verbose: { env: 'APP_VERBOSE', schema: envBoolean, default: 'false', doc: 'Log more.' },
  databaseUrl: { env: 'APP_DATABASE_URL', schema: z.string().min(1), isSecret: true, doc: 'PostgreSQL URL.' },
};

describe('loadConfig', () => {
  it('applies defaults, parses values and freezes the result', () => {
    const config = loadConfig({ settings, env: { APP_DATABASE_URL: 'postgres://x', APP_VERBOSE: 'On' } });
    expect(config).toEqual({ port: 4400, verbose: true, databaseUrl: 'postgres://x' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('lists every problem at once and never echoes a secret', () => {
    let error: unknown;
    try {
      loadConfig({ settings, env: { APP_PORT: '70000', APP_VERBOSE: 'maybe' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/APP_PORT.*70000/);
    expect(problems.join('\n')).toMatch(/APP_VERBOSE/);
    expect(problems.join('\n')).toMatch(/APP_DATABASE_URL/);
  });

  it('reads secrets from <NAME>_FILE, trimming the trailing newline', () => {
    const config = loadConfig({
      settings,
      env: { APP_DATABASE_URL_FILE: '/run/secrets/db' },
      readFile: (p) => (p === '/run/secrets/db' ? 'postgres://from-file\n' : ''),
    });
    expect(config.databaseUrl).toBe('postgres://from-file');
  });

  it('refuses a secret set both directly and by file', () => {
    expect(() =>
      loadConfig({ settings, env: { APP_DATABASE_URL: 'a', APP_DATABASE_URL_FILE: '/f' }, readFile: () => 'b' }),
    ).toThrow(/either APP_DATABASE_URL or APP_DATABASE_URL_FILE/);
  });

  it('does not read <NAME>_FILE for settings that are not secrets', () => {
    const config = loadConfig({
      settings,
      env: { APP_PORT_FILE: '/f', APP_DATABASE_URL: 'x' },
      readFile: () => '1',
    });
    expect(config.port).toBe(4400);
  });
});
