import { describe, expect, it } from 'vitest';
import { loadConfig } from '@lectern/config';
import { defaultRateLimits } from './http/rate-limit.ts';
import { managementLimitSettings, managementRateLimits } from './settings.ts';

const load = (env: Record<string, string>) => loadConfig({ settings: managementLimitSettings, env });

describe('the Management limit settings', () => {
  it('default to the limits the Management app has without them', () => {
    expect(managementRateLimits(load({}))).toEqual(defaultRateLimits);
  });

  it('turn a limit of 0 into a window nothing exceeds', () => {
    expect(
      managementRateLimits(load({ LECTERN_MANAGEMENT_PER_SECOND: '0', LECTERN_MANAGEMENT_PER_HOUR: '5' })),
    ).toEqual({ perSecond: Number.POSITIVE_INFINITY, perMinute: 400, perHour: 5 });
  });
});
