import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@lectern/config';
import { httpDefaults } from './http-options.ts';
import { deliveryHttpOptions, deliveryLimitSettings } from './limit-settings.ts';

const load = (env: Record<string, string>) => loadConfig({ settings: deliveryLimitSettings, env });

describe('the Delivery limit settings', () => {
  it('default to the limits the Delivery app has without them', () => {
    // Staleness bounds are no limits; whether counters are shared is the service's choice (main.ts).
    const { freshnessTtlMs: _ttl, authTtlMs: _auth, isRateLimitShared: _shared, ...limits } = httpDefaults;
    expect(deliveryHttpOptions(load({}))).toEqual(limits);
  });

  it('turn a rate limit of 0 into no window, and take the others as given', () => {
    const options = deliveryHttpOptions(
      load({
        LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
        LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '7',
        LECTERN_DELIVERY_CACHE_MIB: '2',
        LECTERN_DELIVERY_CACHE_ENTRIES: '0',
      }),
    );
    expect(options.rateLimits).toEqual([{ max: 7, seconds: 60 }]);
    expect(options.cacheMaxBytes).toBe(2 * 1024 * 1024);
    expect(options.cacheMaxEntries).toBe(0);
    expect(
      deliveryHttpOptions(
        load({ LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0', LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '0' }),
      ).rateLimits,
    ).toEqual([]);
  });

  it('name every bad value at once', () => {
    let error: unknown;
    try {
      load({
        LECTERN_DELIVERY_UNCACHED_PER_SECOND: '-1',
        LECTERN_DELIVERY_WAIT_TIMEOUT_MS: 'soon',
        LECTERN_DELIVERY_FEED_PAGE_SIZE: '2001',
        LECTERN_DELIVERY_CDN_MAX_AGE_SECONDS: '1.5',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'LECTERN_DELIVERY_UNCACHED_PER_SECOND',
      'LECTERN_DELIVERY_WAIT_TIMEOUT_MS',
      'LECTERN_DELIVERY_FEED_PAGE_SIZE',
      'LECTERN_DELIVERY_CDN_MAX_AGE_SECONDS',
    ]);
    expect(problems[2]).toContain('expected a whole number from 1 to 2000 (got "2001")');
  });
});
