import { describe, expect, it } from 'vitest';
import { bodyOf, fieldOfPath, formOf } from './preview-config.ts';

describe('the preview configuration form', () => {
  it('round-trips a configuration, leaving empty fields out', () => {
    const config = {
      space_domains: [{ space: { id: 's1' }, domain: 'https://shop.example' }],
      preview_url_patterns: [
        {
          content_type: { id: 't1' },
          url_patterns: [
            { space: null, url_pattern: 'https://example.com/{URLslug}' },
            { space: { id: 's1' }, url_pattern: 'https://shop.example/{Codename}' },
          ],
        },
      ],
    };
    const form = formOf(config);
    expect(bodyOf(form).body).toEqual(config);
    const emptied = { ...form, patterns: { ...form.patterns, t2: { '*': '  ' } }, domains: { s1: '', s2: '' } };
    expect(bodyOf(emptied).body).toEqual({ space_domains: [], preview_url_patterns: config.preview_url_patterns });
  });

  it('finds the field a refusal is about', () => {
    const { pathOf } = bodyOf(
      formOf({
        space_domains: [{ space: { id: 's1' }, domain: 'x' }],
        preview_url_patterns: [
          {
            content_type: { id: 't1' },
            url_patterns: [
              { space: null, url_pattern: 'a' },
              { space: { id: 's1' }, url_pattern: 'b' },
            ],
          },
        ],
      }),
    );
    expect(fieldOfPath(pathOf, 'preview_url_patterns[0].url_patterns[1].url_pattern')).toBe('pattern:t1:s1');
    expect(fieldOfPath(pathOf, 'space_domains[0].domain')).toBe('domain:s1');
    expect(fieldOfPath(pathOf, 'preview_url_patterns')).toBeNull();
    expect(fieldOfPath(pathOf, undefined)).toBeNull();
  });
});
