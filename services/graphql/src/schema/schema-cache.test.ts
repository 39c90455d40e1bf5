import { describe, expect, it } from 'vitest';
import { isObjectType, type GraphQLObjectType } from 'graphql';
import { buildProjectSchema, SchemaCache } from './schema-cache.ts';

const type = (codename: string, elements: Record<string, string>, name = codename) => ({
  system: { id: codename, name, codename, last_modified: '2026-01-01T00:00:00Z' },
  elements: Object.fromEntries(Object.entries(elements).map(([k, kind]) => [k, { type: kind, name: k }])),
});

const everyKind = type('fact_about_us', {
  title: 'text',
  body_copy: 'rich_text',
  reading_time: 'number',
  tags: 'multiple_choice',
  post_date: 'date_time',
  hero_image: 'asset',
  related_items: 'modular_content',
  topics: 'taxonomy',
  url_pattern: 'url_slug',
  widget_data: 'custom',
  metadata__meta_title: 'text',
  metadata__og_image: 'asset',
});

function fieldTypes(object: GraphQLObjectType): Record<string, string> {
  return Object.fromEntries(
    Object.values(object.getFields()).map((f) => [
      f.name,
      `${f.args.length > 0 ? `(${f.args.map((a) => `${a.name}=${String(a.defaultValue)}`).join(',')})` : ''}${String(f.type)}`,
    ]),
  );
}

describe('the schema of a content model (SPEC 2.8)', () => {
  it('names types, fields and root queries from codenames, with a field type per element kind', () => {
    const built = buildProjectSchema([everyKind], { defaultLimit: 10 });
    if (!built.isValid) throw new Error(JSON.stringify(built.problems));
    const object = built.schema.getType('FactAboutUs');
    if (!isObjectType(object)) throw new Error('no FactAboutUs');
    expect(object.getInterfaces().map((i) => i.name)).toEqual(['_Item']);
    expect(fieldTypes(object)).toEqual({
      _system_: '_Sys!',
      title: 'String!',
      bodyCopy: '_RichText!',
      readingTime: 'Float',
      tags: '(offset=0,limit=10)_MultipleChoiceOptionCollection!',
      postDate: 'DateTime',
      // nullable, as in a codegen of today's schema (issue 33)
      postDate_with_timezone: '_DateAndTime',
      heroImage: '(offset=0,limit=10)_AssetCollection!',
      relatedItems: '(offset=0,limit=10)_ItemCollection!',
      topics: '(offset=0,limit=10)_TaxonomyTermCollection!',
      urlPattern: 'String!',
      widgetData: '_CustomElement!',
      _metadata: '_Metadata!',
    });
    expect(fieldTypes(built.schema.getType('_Metadata') as GraphQLObjectType)).toEqual({
      metaTitle: 'String!',
      ogImage: '(offset=0,limit=10)_AssetCollection!',
    });
    const root = built.schema.getQueryType() as GraphQLObjectType;
    expect(Object.keys(root.getFields())).toEqual(['factAboutUs', 'factAboutUs_All']);
    expect(root.getFields()['factAboutUs_All']?.args.map((a) => a.name)).toEqual([
      'offset',
      'limit',
      'languageFilter',
      'where',
      'order',
    ]);
    expect(String(root.getFields()['factAboutUs']?.type)).toBe('FactAboutUs');
    expect(built.schema.getType('_Sys')).toBeDefined();
    expect(built.schema.getPossibleTypes(built.schema.getType('_Item') as never).map((t) => t.name)).toEqual([
      'FactAboutUs',
    ]);
  });

  it('filters only the filterable kinds and orders by scalar ones (SPEC 4.4 rule 5)', () => {
    const built = buildProjectSchema([everyKind], { defaultLimit: 10 });
    if (!built.isValid) throw new Error('invalid');
    const where = built.schema.getType('FactAboutUs_Where') as unknown as GraphQLObjectType;
    expect(Object.keys(where.getFields()).sort()).toEqual(
      [
        'AND',
        'OR',
        '_system_',
        'title',
        'readingTime',
        'tags',
        'postDate',
        'postDate_with_timezone',
        'relatedItems',
        'topics',
        'urlPattern',
        '_metadata',
      ].sort(),
    );
    const order = built.schema.getType('FactAboutUs_Order') as unknown as GraphQLObjectType;
    expect(Object.keys(order.getFields()).sort()).toEqual(
      ['_system_', 'title', 'readingTime', 'postDate', 'postDate_with_timezone', 'urlPattern', '_metadata'].sort(),
    );
  });

  it('refuses a reserved codename, naming it', () => {
    const built = buildProjectSchema([type('string', { a: 'text' }), type('article', { a: 'text' })], {
      defaultLimit: 10,
    });
    expect(built.isValid).toBe(false);
    if (built.isValid) return;
    expect(built.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/content type 'string'.*reserved GraphQL name 'String'/),
    ]);
  });

  it('refuses two codenames that collapse to one name, naming both', () => {
    const built = buildProjectSchema(
      [type('x_1', { a: 'text' }), type('x1', { a: 'text' }), type('article', { item_2: 'text', item2: 'number' })],
      { defaultLimit: 10 },
    );
    if (built.isValid) throw new Error('valid');
    expect(built.problems.map((p) => p.message)).toEqual([
      "The content type 'x_1' and the content type 'x1' both give the GraphQL type name 'X1'; rename one of them.",
      "The element 'item_2' and the element 'item2' both give the GraphQL field (of content type 'article') name 'item2'; rename one of them.",
    ]);
  });

  it('refuses a snippet that takes a predefined name', () => {
    const built = buildProjectSchema([type('article', { rich_text__x: 'text' })], { defaultLimit: 10 });
    if (built.isValid) throw new Error('valid');
    expect(built.problems[0]?.message).toContain(
      "predefined type '_RichText' and the content type snippet 'rich_text'",
    );
  });
});

describe('SchemaCache', () => {
  it('builds once per content model and again when the model changes', () => {
    const cache = new SchemaCache({ defaultLimit: 10 });
    const first = cache.get('p', [everyKind]);
    expect(cache.get('p', [everyKind])).toBe(first);
    expect(cache.get('p', JSON.parse(JSON.stringify([everyKind])) as never)).toBe(first);
    expect(cache.builds).toBe(1);
    const changed = cache.get('p', [everyKind, type('article', { title: 'text' })]);
    expect(changed).not.toBe(first);
    expect(cache.builds).toBe(2);
    cache.get('q', [everyKind]);
    expect(cache.builds).toBe(3);
  });
});
