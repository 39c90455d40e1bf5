import type { DeliveryItem, IndexedLanguage, IndexedVariant } from '@lectern/core';
import type { SampleContent } from './sample-index.ts';

let counter = 0;
function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export function makeItem(codename: string, language: string, elements: DeliveryItem['elements'], type = 'article') {
  counter += 1;
  return {
    system: {
      id: uuid(counter),
      name: codename.replace(/_/g, ' '),
      codename,
      language,
      type,
      collection: 'default',
      sitemap_locations: [],
      last_modified: `2026-01-${String((counter % 28) + 1).padStart(2, '0')}T10:00:00.0000000Z`,
      workflow: 'default',
      workflow_step: 'published',
    },
    elements,
  } satisfies DeliveryItem;
}

export function makeVariant(
  item: DeliveryItem,
  links: readonly string[] = [],
  components: Record<string, DeliveryItem> = {},
): IndexedVariant {
  return {
    itemId: itemIdOf(item.system.codename),
    language: item.system.language,
    item,
    linkedItemCodenames: links,
    components,
  };
}

/** One item id per codename, the same in every language (the index keys an item's variants by it). */
const itemIds = new Map<string, string>();
function itemIdOf(codename: string): string {
  if (!itemIds.has(codename))
    itemIds.set(codename, `00000000-0000-4000-9000-${String(itemIds.size + 1).padStart(12, '0')}`);
  return itemIds.get(codename) as string;
}

function articleElements(o: {
  title: string;
  price: number | null;
  tags: string[];
  related: string[];
  body?: string[];
}) {
  return {
    title: { type: 'text', name: 'Title', value: o.title },
    price: { type: 'number', name: 'Price', value: o.price },
    tags: { type: 'multiple_choice', name: 'Tags', value: o.tags.map((t) => ({ name: t, codename: t })) },
    related: { type: 'modular_content', name: 'Related', value: o.related },
    body: {
      type: 'rich_text',
      name: 'Body',
      value: '<p>x</p>',
      images: {},
      links: {},
      modular_content: o.body ?? [],
    },
  };
}

/**
 * A project in two languages (`de` falls back to `en`): a chain a → b → c → d of linked items,
 * a component in `a`, an item only in `de`, and `x` in both languages.
 */
export function sampleContent(): {
  production: IndexedVariant[];
  preview: IndexedVariant[];
  model: SampleContent['model'];
} {
  const languages: IndexedLanguage[] = [
    {
      system: { id: '00000000-0000-0000-0000-000000000000', name: 'English', codename: 'en' },
      fallbackCodename: null,
      isDefault: true,
    },
    { system: { id: uuid(999), name: 'German', codename: 'de' }, fallbackCodename: 'en', isDefault: false },
  ];
  const component = makeItem('n0000_comp', 'en', { title: { type: 'text', name: 'Title', value: 'Comp' } }, 'snippet');
  const v = (
    codename: string,
    language: string,
    price: number | null,
    tags: string[],
    related: string[],
    body: string[] = [],
  ) =>
    makeVariant(
      makeItem(codename, language, articleElements({ title: `${codename} ${language}`, price, tags, related, body })),
      related,
      body.length > 0 ? { [body[0] as string]: component } : {},
    );
  const production = [
    v('a', 'en', 10, ['red', 'blue'], ['b'], ['n0000_comp']),
    v('b', 'en', 20, ['blue'], ['c']),
    v('c', 'en', 30, [], ['d']),
    v('d', 'en', null, ['green'], []),
    v('x', 'en', 5, ['red'], []),
    v('x', 'de', 6, ['red'], []),
    v('only_de', 'de', 7, [], []),
  ];
  const preview = [...production, v('draft', 'en', 1, [], [])];
  const types = [
    {
      system: { id: uuid(900), name: 'Article', codename: 'article', last_modified: '2026-01-01T00:00:00.0000000Z' },
      elements: {
        title: { type: 'text', name: 'Title' },
        price: { type: 'number', name: 'Price' },
        tags: { type: 'multiple_choice', name: 'Tags', options: [{ name: 'Red', codename: 'red' }] },
        related: { type: 'modular_content', name: 'Related' },
        body: { type: 'rich_text', name: 'Body' },
      },
    },
  ];
  const taxonomies = [
    {
      system: { id: uuid(901), name: 'Colours', codename: 'colours', last_modified: '2026-01-01T00:00:00.0000000Z' },
      terms: [{ name: 'Red', codename: 'red', terms: [] }],
    },
  ];
  return { production, preview, model: { types, taxonomies, languages } };
}
