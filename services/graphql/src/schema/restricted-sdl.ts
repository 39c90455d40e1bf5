import type { ModelElement, Restriction } from './content-model.ts';

/**
 * The types of elements limited to some content types, named as today's Kontent.ai schema names
 * them (GraphQL Code Generator's output from a live schema, kontent-ai/kickstart-react-graphql-app
 * `src/graphql/graphql.ts`): linked items `featured_content` of `landing_page` allowing Article and
 * Event answer `LandingPage_FeaturedContent_Collection` whose `items` are the union
 * `LandingPage_FeaturedContent = Article | Event`; allowing one type, the `items` are that type
 * and there is no union. Rich text `body_copy` limited to Video is `LandingPage_BodyCopy`, whose
 * `components` and `linkedItems` are `LandingPage_BodyCopy_Components_Collection` and
 * `LandingPage_BodyCopy_LinkedItems_Collection`; `itemHyperlinks` stays `_ItemCollection`.
 */

/** The type of a restricted collection's items, with the union it needs (several types). */
function itemsOf(name: string, r: Restriction): { item: string; sdl: string[] } {
  const [only] = r.typeNames;
  if (r.typeNames.length === 1 && only !== undefined) return { item: only, sdl: [] };
  return { item: name, sdl: [`union ${name} = ${r.typeNames.join(' | ')}`] };
}

function collectionSdl(name: string, r: Restriction): string[] {
  const { item, sdl } = itemsOf(name, r);
  return [
    ...sdl,
    `type ${name}_Collection {\n  items: [${item}!]!\n  offset: Int!\n  limit: Int!\n  totalCount: Int!\n}`,
  ];
}

/** The field type of a restricted element (`page`: the collection arguments). */
export function restrictedField(e: ModelElement, r: Restriction, page: string): string {
  return e.kind === 'rich_text' ? `${e.fieldName}: ${r.name}!` : `${e.fieldName}${page}: ${r.name}_Collection!`;
}

/** The types a restricted element declares. */
export function restrictedSdl(e: ModelElement, r: Restriction, page: string): string[] {
  if (e.kind !== 'rich_text') return collectionSdl(r.name, r);
  return [
    `type ${r.name} {
  html: String!
  assets${page}: _RichTextAssetCollection!
  components${page}: ${r.name}_Components_Collection!
  linkedItems${page}: ${r.name}_LinkedItems_Collection!
  itemHyperlinks${page}: _ItemCollection!
}`,
    ...collectionSdl(`${r.name}_Components`, r),
    ...collectionSdl(`${r.name}_LinkedItems`, r),
  ];
}

/** Every type the restricted elements of these elements declare. */
export function restrictionsSdl(elements: readonly ModelElement[], page: string): string[] {
  return elements.flatMap((e) => (e.restriction === undefined ? [] : restrictedSdl(e, e.restriction, page)));
}
