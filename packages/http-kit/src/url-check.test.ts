import { describe, expect, it } from 'vitest';
import { checkUrl } from './url-check.ts';

describe('checkUrl', () => {
  it('passes well-formed URLs, whatever their query encoding', () => {
    for (const url of ['/', '/p/items', '/p/items/a%20b?x=%zz', '/p/items?system.type=a%2Cb', '/p/%C3%A9'])
      expect(checkUrl(url)).toBeNull();
  });

  it('refuses a path segment that is not valid percent-encoding, naming it', () => {
    for (const url of ['/p/items/%E0%A4%A', '/p/files/%zz.txt', '/p/%', '/p/%ED%A0%80']) {
      const error = checkUrl(url);
      expect(error?.code).toBe('MALFORMED_URL');
      expect(error?.message).toContain(url.split('/').pop() as string);
    }
  });

  it('refuses an empty path segment anywhere but the trailing slash (issue 27: `//items` skipped authentication)', () => {
    for (const url of ['//items', '///items', '//p/items', '/p//items', '/p/items//', '/v2//sync', '//?x=1']) {
      const error = checkUrl(url);
      expect(error?.code, url).toBe('MALFORMED_URL');
      expect(error?.message, url).toContain('empty segment');
    }
    for (const url of ['/', '/p/items/', '/p/items/?x=//', '/p/items?next=a//b', 'http://host:4401/p/items'])
      expect(checkUrl(url), url).toBeNull();
    expect(checkUrl('http://host//items')?.code).toBe('MALFORMED_URL');
  });

  it('refuses U+0000 in a path segment or the query string', () => {
    expect(checkUrl('/p/items/codename/a%00b')?.code).toBe('INVALID_IDENTIFIER');
    expect(checkUrl('/p/items?system.type=%00')?.code).toBe('INVALID_QUERY');
    expect(checkUrl('/p/items?system.type%00=x')?.code).toBe('INVALID_QUERY');
  });
});
