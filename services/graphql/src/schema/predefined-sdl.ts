/**
 * The predefined part of every project's schema (SPEC 2.8; reference 3.3, the reconstructed SDL of
 * today's Kontent.ai schema). Collection fields take `offset` and `limit` (SPEC 4.4 rule 7).
 */
export function predefinedSdl(options: { readonly defaultLimit: number }): string {
  const page = `(offset: Int = 0, limit: Int = ${options.defaultLimit})`;
  const collection = (name: string, item: string) =>
    `type ${name} {\n  items: [${item}!]!\n  offset: Int!\n  limit: Int!\n  totalCount: Int!\n}`;
  const sys = (name: string, fields: string) =>
    `type ${name} {\n  _system_: ${name}Sys!\n}\ntype ${name}Sys {\n${fields}\n}`;
  return [
    '"An ISO 8601 date and time, e.g. 2026-03-01T10:00:00Z."\nscalar DateTime',
    '"A UUID."\nscalar Guid',
    'schema {\n  query: _RootQuery\n}',
    '"A content item or a component of any content type."\ninterface _Item {\n  _system_: _Sys!\n}',
    `type _Sys {
  id: Guid!
  name: String!
  codename: String!
  "When the item last changed; workflow step changes do not count."
  lastModified: DateTime!
  language: _Language!
  type: _ContentType!
  collection: _Collection!
  workflow: _Workflow!
  workflowStep: _WorkflowStep!
}`,
    sys('_Language', '  codename: String!\n  name: String!'),
    sys('_ContentType', '  codename: String!\n  name: String!'),
    sys('_Collection', '  codename: String!'),
    sys('_Workflow', '  codename: String!'),
    sys('_WorkflowStep', '  codename: String!'),
    collection('_ItemCollection', '_Item'),
    `interface _AssetInterface {
  url: String!
  name: String
  description: String
  type: String
  size: Int
  width: Int
  height: Int
}`,
    `type _Asset implements _AssetInterface {
  url: String!
  name: String
  description: String
  type: String
  size: Int
  width: Int
  height: Int
  renditions${page}: _AssetRenditionCollection
}`,
    collection('_AssetCollection', '_Asset'),
    `type _Rendition {
  rendition_id: String!
  preset_id: String!
  preset: String!
  width: Int!
  height: Int!
  query: String!
}`,
    collection('_AssetRenditionCollection', '_Rendition'),
    `type _RichTextAsset implements _AssetInterface {
  imageId: String!
  url: String!
  name: String
  description: String
  type: String
  size: Int
  width: Int
  height: Int
}`,
    collection('_RichTextAssetCollection', '_RichTextAsset'),
    `type _RichText {
  html: String!
  assets${page}: _RichTextAssetCollection!
  components${page}: _ItemCollection!
  linkedItems${page}: _ItemCollection!
  itemHyperlinks${page}: _ItemCollection!
}`,
    'type _DateAndTime {\n  value: DateTime\n  display_timezone: String\n}',
    sys('_MultipleChoiceOption', '  codename: String!\n  name: String!'),
    collection('_MultipleChoiceOptionCollection', '_MultipleChoiceOption'),
    sys('_TaxonomyTerm', '  codename: String!\n  name: String!'),
    collection('_TaxonomyTermCollection', '_TaxonomyTerm'),
    '"The value of a custom element, as its editor stored it."\ntype _CustomElement {\n  value: String\n}',
    'enum _OrderEnum {\n  asc\n  desc\n}',
    'input _LanguageFilter {\n  languageCodename: String!\n}',
    'input _TextFilter {\n  eq: String\n  notEq: String\n  in: [String!]\n  notIn: [String!]\n  isEmpty: Boolean\n}',
    `input _NumberFilter {
  eq: Float
  notEq: Float
  lt: Float
  lte: Float
  gt: Float
  gte: Float
  in: [Float!]
  notIn: [Float!]
  isEmpty: Boolean
}`,
    `input _DateTimeFilter {
  eq: DateTime
  notEq: DateTime
  lt: DateTime
  lte: DateTime
  gt: DateTime
  gte: DateTime
  in: [DateTime!]
  notIn: [DateTime!]
  isEmpty: Boolean
}`,
    'input _DateAndTimeElementFilter {\n  value: _DateTimeFilter\n}',
    'input _DateAndTimeElementOrder {\n  value: _OrderEnum\n}',
    '"Codenames: of linked items, options or taxonomy terms."\ninput _ArrayFilter {\n  containsAll: [String!]\n  containsAny: [String!]\n  isEmpty: Boolean\n}',
    'input _IdFilter {\n  eq: Guid\n  notEq: Guid\n  in: [Guid!]\n  notIn: [Guid!]\n}',
    'input _CodenameFilter {\n  eq: String\n  notEq: String\n  in: [String!]\n  notIn: [String!]\n}',
    'input _SystemLanguageSystemFilter {\n  codename: _CodenameFilter\n}',
    '"Filtering by language turns language fallbacks off."\ninput _SystemLanguageFilter {\n  _system_: _SystemLanguageSystemFilter\n}',
    `input _SystemFilter {
  id: _IdFilter
  codename: _CodenameFilter
  name: _TextFilter
  lastModified: _DateTimeFilter
  collection: _CodenameFilter
  workflow: _CodenameFilter
  workflowStep: _CodenameFilter
  language: _SystemLanguageFilter
}`,
    'input _SystemOrder {\n  codename: _OrderEnum\n  lastModified: _OrderEnum\n  name: _OrderEnum\n}',
  ].join('\n\n');
}
