import { describe, expect, it } from 'vitest';
import { loadConfig } from '@lectern/config';
import { defaultRateLimits } from './http/rate-limit.ts';
import { defaultImageLimits } from './images/image-cache.ts';
import {
  managementImageLimits,
  managementImageSettings,
  managementLimitSettings,
  managementRateLimits,
  managementSettings,
  managementUrlSettings,
} from './settings.ts';

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

describe('the image transformation settings', () => {
  const loadImages = (env: Record<string, string>) => loadConfig({ settings: managementImageSettings, env });

  it('default to the limits the Management app has without them', () => {
    expect(managementImageLimits(loadImages({}))).toEqual(defaultImageLimits);
  });

  it('read MiB and megapixels', () => {
    expect(
      managementImageLimits(
        loadImages({
          LECTERN_IMAGE_CACHE_MAX_MB_PER_PROJECT: '1',
          LECTERN_IMAGE_TRANSFORMS_PER_SECOND: '0',
          LECTERN_IMAGE_MAX_MEGAPIXELS: '2',
        }),
      ),
    ).toEqual({ cacheBytesPerProject: 1_048_576, transformsPerSecond: 0, maxPixels: 2_000_000 });
  });
});

describe('the Management URL settings', () => {
  const loadUrls = (env: Record<string, string>) => loadConfig({ settings: managementUrlSettings, env });

  it('trust no proxy and have no public URL by default', () => {
    expect(loadUrls({})).toEqual({ trustedProxies: [], managementPublicUrl: undefined, assetsPublicUrl: undefined });
  });

  it('read a comma-separated list of proxies and an https public URL', () => {
    expect(
      loadUrls({
        LECTERN_TRUSTED_PROXIES: ' loopback, 10.0.0.0/8,fd00::/8 ,192.168.1.7',
        LECTERN_MANAGEMENT_PUBLIC_URL: 'https://manage.example.com/',
        LECTERN_ASSETS_PUBLIC_URL: 'https://files.example.com',
      }),
    ).toEqual({
      trustedProxies: ['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.7'],
      managementPublicUrl: 'https://manage.example.com/',
      assetsPublicUrl: 'https://files.example.com',
    });
  });

  it('name every bad value', () => {
    expect(() =>
      loadUrls({
        LECTERN_TRUSTED_PROXIES: 'proxy.local,10.0.0.0/40',
        LECTERN_MANAGEMENT_PUBLIC_URL: 'ftp://x',
        LECTERN_ASSETS_PUBLIC_URL: 'https://a.example.com/?x',
      }),
    ).toThrow(/LECTERN_TRUSTED_PROXIES[\s\S]*LECTERN_MANAGEMENT_PUBLIC_URL[\s\S]*LECTERN_ASSETS_PUBLIC_URL/);
  });
});

describe('the operator token setting (issue 27, finding 7)', () => {
  const loadToken = (env: Record<string, string>) =>
    loadConfig({ settings: { operatorToken: managementSettings.operatorToken }, env });

  it('refuses a token shorter than 32 characters, saying how to make one, and never shows it', () => {
    const short = 'sixteen-chars-ok';
    expect(() => loadToken({ LECTERN_OPERATOR_TOKEN: short })).toThrow(
      /LECTERN_OPERATOR_TOKEN[\s\S]*at least 32 characters[\s\S]*openssl rand -hex 32/,
    );
    expect(() => loadToken({ LECTERN_OPERATOR_TOKEN: short })).not.toThrow(short);
  });

  it('takes a token of 32 characters or more', () => {
    const token = 'a'.repeat(64);
    expect(loadToken({ LECTERN_OPERATOR_TOKEN: token })).toEqual({ operatorToken: token });
  });
});
