import { describe, expect, it } from 'vitest';
import { resolveAssetsOrigin } from './assets-origin.ts';

const listenerUrl = 'http://127.0.0.1:4406';

describe('resolveAssetsOrigin', () => {
  it('takes the configured public URL first, without a trailing slash', () => {
    expect(
      resolveAssetsOrigin({
        publicUrl: 'https://files.example.com/',
        listenerUrl,
        managementOrigin: 'https://manage.example.com',
      }),
    ).toBe('https://files.example.com');
  });

  it('relabels a manage. host assets., keeping scheme and port and dropping any path', () => {
    expect(resolveAssetsOrigin({ listenerUrl, managementOrigin: 'https://MANAGE.example.com' })).toBe(
      'https://assets.example.com',
    );
    expect(resolveAssetsOrigin({ listenerUrl, managementOrigin: 'http://manage.lectern.test:8443/cms' })).toBe(
      'http://assets.lectern.test:8443',
    );
    // The editor's host (app.) is the Management API's too.
    expect(resolveAssetsOrigin({ listenerUrl, managementOrigin: 'https://app.example.com' })).toBe(
      'https://assets.example.com',
    );
  });

  it("falls back to the assets listener's URL for any other host", () => {
    for (const managementOrigin of [
      'http://127.0.0.1:4400',
      'http://manage:4400',
      'https://cms.example.com',
      'not a url',
    ])
      expect(resolveAssetsOrigin({ listenerUrl, managementOrigin }), managementOrigin).toBe(listenerUrl);
    expect(resolveAssetsOrigin({ listenerUrl, managementOrigin: null })).toBe(listenerUrl);
  });

  it('knows no origin without any of them', () => {
    expect(resolveAssetsOrigin({ managementOrigin: 'http://127.0.0.1:4400' })).toBeNull();
  });
});
