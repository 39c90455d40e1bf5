import { describe, expect, it } from 'vitest';
import { isObjectType, isUnionType, parse, type GraphQLNamedType } from 'graphql';
import { queryCost, selectOperation } from '../limits/query-cost.ts';
import { buildProjectSchema, SchemaCache } from './schema-cache.ts';

/*
 * Issue 33: restricted elements get the types today's Kontent.ai schema gives them. Expected names
 * from [codegen] kontent-ai/kickstart-react-graphql-app@a102b9e8, src/graphql/graphql.ts (types
 * generated from a live schema): `LandingPage.featuredContent: LandingPage_FeaturedContent_Collection`
 * whose `items: Array<LandingPageFeaturedContent>` with `LandingPageFeaturedContent = Article | Event`;
 * `LandingPage.bodyCopy: LandingPage_BodyCopy` with `components:
 * LandingPage_BodyCopy_Components_Collection` and `linkedItems:
 * LandingPage_BodyCopy_LinkedItems_Collection` of `items: Array<Video>`, `itemHyperlinks:
 * ItemCollection`; `Article.bodyCopy: RichText` (not limited).
 */

const type = (codename: string, elements: Record<string, string>) => ({
  system: { id: codename, name: codename, codename, last_modified: '2026-01-01T00:00:00Z' },
  elements: Object.fromEntries(Object.entries(elements).map(([k, kind]) => [k, { type: kind, name: k }])),
});

const types = [
  type('article', { title: 'text', body_copy: 'rich_text' }),
  type('event', { name: 'text' }),
  type('video', { headline: 'text' }),
  type('landing_page', {
    body_copy: 'rich_text',
    featured_content: 'modular_content',
    hero_videos: 'modular_content',
    gone: 'modular_content',
    metadata__related: 'modular_content',
  }),
];
const links = {
  landing_page: {
    body_copy: ['video'],
    featured_content: ['article', 'event'],
    hero_videos: ['video'],
    gone: ['deleted_type'],
    metadata__related: ['article', 'video'],
  },
};

function shape(t: GraphQLNamedType | null | undefined): unknown {
  if (isUnionType(t)) return t.getTypes().map((m) => m.name);
  if (!isObjectType(t)) return t;
  return Object.fromEntries(Object.values(t.getFields()).map((f) => [f.name, String(f.type)]));
}

describe('restricted linked items and rich text [codegen]', () => {
  const built = buildProjectSchema(types, { defaultLimit: 10 }, links);
  if (!built.isValid) throw new Error(JSON.stringify(built.problems));
  const get = (name: string) => shape(built.schema.getType(name));
  const page = { offset: 'Int!', limit: 'Int!', totalCount: 'Int!' };

  it('gives linked items of several types a collection of their union', () => {
    expect(shape(built.schema.getType('LandingPage'))).toMatchObject({
      featuredContent: 'LandingPage_FeaturedContent_Collection!',
      bodyCopy: 'LandingPage_BodyCopy!',
    });
    expect(get('LandingPage_FeaturedContent_Collection')).toEqual({
      items: '[LandingPage_FeaturedContent!]!',
      ...page,
    });
    expect(get('LandingPage_FeaturedContent')).toEqual(['Article', 'Event']);
  });

  it('gives linked items of one type a collection of that type, and no union', () => {
    expect(get('LandingPage_HeroVideos_Collection')).toEqual({ items: '[Video!]!', ...page });
    expect(built.schema.getType('LandingPage_HeroVideos')).toBeUndefined();
  });

  it('gives restricted rich text its own type; item hyperlinks stay generic', () => {
    expect(get('LandingPage_BodyCopy')).toEqual({
      html: 'String!',
      assets: '_RichTextAssetCollection!',
      components: 'LandingPage_BodyCopy_Components_Collection!',
      linkedItems: 'LandingPage_BodyCopy_LinkedItems_Collection!',
      itemHyperlinks: '_ItemCollection!',
    });
    expect(get('LandingPage_BodyCopy_Components_Collection')).toEqual({ items: '[Video!]!', ...page });
    expect(get('LandingPage_BodyCopy_LinkedItems_Collection')).toEqual({ items: '[Video!]!', ...page });
    expect(shape(built.schema.getType('Article'))).toMatchObject({ bodyCopy: '_RichText!' });
  });

  it('names a snippet element’s types after the snippet, and keeps generic an element whose types are gone', () => {
    expect(get('_Metadata')).toEqual({ related: '_Metadata_Related_Collection!' });
    expect(get('_Metadata_Related')).toEqual(['Article', 'Video']);
    expect(shape(built.schema.getType('LandingPage'))).toMatchObject({ gone: '_ItemCollection!' });
  });

  it('charges their items as the generic collections’ (complexity, SPEC 8)', () => {
    const cost = (query: string, schema = built.schema) => {
      const document = parse(query);
      const operation = selectOperation(document, null);
      if (operation === null) throw new Error('no operation');
      return queryCost({ schema, document, operation, variables: {}, maxPageSize: 20 }).complexity;
    };
    const plain = buildProjectSchema(types, { defaultLimit: 10 });
    if (!plain.isValid) throw new Error(JSON.stringify(plain.problems));
    const query = `{ landingPage_All(limit: 2) { items {
      featuredContent(limit: 5) { items { __typename ... on Article { _system_ { codename } } } }
      bodyCopy { components(limit: 3) { items { __typename } } linkedItems(limit: 4) { items { __typename } } } } } }`;
    // 2 pages × (1 + 5 linked + 3 components + 4 linked in rich text)
    expect(cost(query)).toBe(26);
    expect(cost(query, plain.schema)).toBe(26);
  });

  it('keeps the generic types for a model indexed without links, and builds anew when links change', () => {
    const plain = buildProjectSchema(types, { defaultLimit: 10 });
    if (!plain.isValid) throw new Error(JSON.stringify(plain.problems));
    expect(shape(plain.schema.getType('LandingPage'))).toMatchObject({
      featuredContent: '_ItemCollection!',
      bodyCopy: '_RichText!',
    });
    const cache = new SchemaCache({ defaultLimit: 10 });
    const first = cache.get('p', types);
    expect(cache.get('p', types, links)).not.toBe(first);
    expect(cache.get('p', types, JSON.parse(JSON.stringify(links)) as typeof links)).toBe(cache.get('p', types, links));
    expect(cache.builds).toBe(2);
  });
});
