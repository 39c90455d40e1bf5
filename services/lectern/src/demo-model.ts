import { addContentType, addLanguage, addSnippet, addTaxonomy, operator, type CoreDeps } from '@lectern/core';

/**
 * The demo project's small content model, created through the same operations the Management API
 * serves: a second language with a fallback, a taxonomy, an SEO snippet, and two content types
 * that use every common element kind.
 */
export async function seedDemoModel(core: CoreDeps, projectId: string): Promise<void> {
  const input = { actor: operator, projectId };
  await addLanguage(core, { ...input, body: { name: 'Czech', codename: 'cs-CZ', fallback_language: { codename: 'default' } } });
  await addTaxonomy(core, {
    ...input,
    body: {
      name: 'Topics',
      codename: 'topics',
      terms: [
        { name: 'Engineering', codename: 'engineering', terms: [] },
        { name: 'Design', codename: 'design', terms: [] },
        { name: 'Product', codename: 'product', terms: [{ name: 'Pricing', codename: 'pricing', terms: [] }] },
      ],
    },
  });
  await addSnippet(core, {
    ...input,
    body: {
      name: 'SEO',
      codename: 'seo',
      elements: [
        { name: 'Meta title', codename: 'meta_title', type: 'text', maximum_text_length: { value: 60, applies_to: 'characters' } },
        { name: 'Meta description', codename: 'meta_description', type: 'text' },
      ],
    },
  });
  await addContentType(core, {
    ...input,
    body: {
      name: 'Author',
      codename: 'author',
      elements: [
        { name: 'Name', codename: 'name', type: 'text', is_required: true },
        { name: 'Bio', codename: 'bio', type: 'rich_text' },
        { name: 'Photo', codename: 'photo', type: 'asset', asset_count_limit: { value: 1, condition: 'at_most' } },
      ],
    },
  });
  await addContentType(core, {
    ...input,
    body: {
      name: 'Article',
      codename: 'article',
      elements: [
        { name: 'Title', codename: 'title', type: 'text', is_required: true },
        { name: 'Summary', codename: 'summary', type: 'text' },
        { name: 'Body', codename: 'body', type: 'rich_text' },
        { name: 'Published on', codename: 'published_on', type: 'date_time' },
        { name: 'Reading time', codename: 'reading_time', type: 'number' },
        { name: 'Authors', codename: 'authors', type: 'modular_content', allowed_content_types: [{ codename: 'author' }] },
        { type: 'taxonomy', codename: 'topics', taxonomy_group: { codename: 'topics' } },
        { type: 'snippet', snippet: { codename: 'seo' } },
        { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
      ],
    },
  });
}
