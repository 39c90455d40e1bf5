import { describe, expect, it } from 'vitest';
import {
  expandPattern,
  previewOrigin,
  previewUrlsOf,
  type PreviewConfiguration,
  type PreviewItem,
} from './preview-url.ts';

const item: PreviewItem = {
  id: '7f3c2a1e-0000-4000-8000-000000000001',
  codename: 'about_us',
  typeId: 'type-page',
  collection: { id: 'col-blog', codename: 'blog' },
  languageCodename: 'en-US',
  urlSlug: 'about us',
};
const spaces = [
  { id: 'space-main', name: 'Main site', collections: [{ id: 'col-default' }] },
  { id: 'space-blog', name: 'Blog', collections: [{ id: 'col-blog' }] },
  { id: 'space-news', name: 'News', collections: [{ id: 'col-blog' }] },
];

describe('preview URL macros', () => {
  it('replaces each macro with the item value, encoding values but not the domain', () => {
    expect(
      expandPattern(
        'https://{Space}/{Lang}/{Collection}/{URLslug}?id={ItemId}&c={Codename}&l={LanguageCodename}',
        item,
        'blog.example.com',
      ),
    ).toBe(`https://blog.example.com/en-US/blog/about%20us?id=${item.id}&c=about_us&l=en-US`);
  });
  it('names the missing value instead of producing a broken URL', () => {
    expect(expandPattern('https://site.test/{URLslug}', { ...item, urlSlug: null }, null)).toEqual({
      problem: 'The item has no URL slug to preview.',
    });
    expect(expandPattern('https://{Space}/x', item, null)).toEqual({
      problem: 'The space has no domain in the preview configuration.',
    });
    expect(expandPattern('https://site.test/{Collection}', { ...item, collection: null }, null)).toEqual({
      problem: 'The item is in no collection.',
    });
  });
  it('leaves text that is not a macro as written (macros are case-sensitive)', () => {
    expect(expandPattern('https://site.test/{codename}/{Codename}', item, null)).toBe(
      'https://site.test/{codename}/about_us',
    );
  });
});

describe('preview URLs of an item', () => {
  const config: PreviewConfiguration = {
    space_domains: [
      { space: { id: 'space-blog' }, domain: 'blog.example.com' },
      { space: { id: 'space-news' }, domain: 'news.example.com' },
    ],
    preview_url_patterns: [
      {
        content_type: { id: 'type-page' },
        url_patterns: [
          { space: null, url_pattern: 'https://{Space}/{URLslug}' },
          { space: { id: 'space-news' }, url_pattern: 'https://{Space}/story/{Codename}' },
        ],
      },
    ],
  };
  it('gives one URL per space holding the item, the space pattern winning over the general one', () => {
    expect(previewUrlsOf(config, spaces, item).map((u) => [u.space?.id, u.url])).toEqual([
      ['space-blog', 'https://blog.example.com/about%20us'],
      ['space-news', 'https://news.example.com/story/about_us'],
    ]);
  });
  it('uses the general pattern without a space when no space holds the item', () => {
    const noSpace = { ...item, collection: { id: 'col-other', codename: 'other' } };
    const cfg = {
      ...config,
      preview_url_patterns: [
        {
          content_type: { id: 'type-page' },
          url_patterns: [{ space: null, url_pattern: 'https://site.test/{Lang}/{URLslug}' }],
        },
      ],
    };
    expect(previewUrlsOf(cfg, spaces, noSpace)).toEqual([{ space: null, url: 'https://site.test/en-US/about%20us' }]);
    // {Space} without a space cannot be expanded: the problem is told.
    expect(previewUrlsOf(config, spaces, noSpace)).toEqual([
      { space: null, url: null, problem: 'The space has no domain in the preview configuration.' },
    ]);
  });
  it('has none for a type without patterns', () => {
    expect(previewUrlsOf(config, spaces, { ...item, typeId: 'type-other' })).toEqual([]);
  });
  it('reads the origin of http(s) URLs only', () => {
    expect(previewOrigin('https://blog.example.com/a?b')).toBe('https://blog.example.com');
    expect(previewOrigin('javascript:alert(1)')).toBeNull();
    expect(previewOrigin('not a url')).toBeNull();
  });
});
