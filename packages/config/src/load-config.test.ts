import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config.ts';
import { envBoolean, port, wholeNumber } from './schemas.ts';

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

  it('takes whole numbers within bounds and names each value that is not one', () => {
    const limits = {
      perSecond: {
        env: 'APP_PER_SECOND',
        schema: wholeNumber({ min: 0, max: 1000 }),
        default: '100',
        doc: 'Per second; 0: off.',
      },
      pageSize: {
        env: 'APP_PAGE_SIZE',
        schema: wholeNumber({ min: 1, max: 2000 }),
        default: '1000',
        doc: 'Items a page.',
      },
      timeoutMs: {
        env: 'APP_TIMEOUT_MS',
        schema: wholeNumber({ min: 0, max: 60_000 }),
        default: '10000',
        doc: 'In ms.',
      },
    };
    expect(loadConfig({ settings: limits, env: { APP_PER_SECOND: '0', APP_PAGE_SIZE: ' 2000 ' } })).toEqual({
      perSecond: 0,
      pageSize: 2000,
      timeoutMs: 10_000,
    });
    let error: unknown;
    try {
      loadConfig({ settings: limits, env: { APP_PER_SECOND: '-1', APP_PAGE_SIZE: '0', APP_TIMEOUT_MS: '2.5s' } });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual([
      'APP_PER_SECOND: expected a whole number from 0 to 1000 (got "-1"). Per second; 0: off.',
      'APP_PAGE_SIZE: expected a whole number from 1 to 2000 (got "0"). Items a page.',
      'APP_TIMEOUT_MS: expected a whole number from 0 to 60000 (got "2.5s"). In ms.',
    ]);
  });
});
