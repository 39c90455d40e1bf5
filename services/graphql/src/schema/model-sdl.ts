import { assertNever } from '@lectern/errors';
import type { ElementKind, GraphqlModel, ModelElement, ModelSnippet, ModelType } from './content-model.ts';
import { predefinedSdl } from './predefined-sdl.ts';
import { restrictedField, restrictionsSdl } from './restricted-sdl.ts';

export interface SdlOptions {
  /** Collection `limit` when a query gives none (SPEC 8: 10). */
  readonly defaultLimit: number;
}

/** The output fields of one element (two for date and time). */
function elementFields(e: ModelElement, page: string): string[] {
  const f = e.fieldName;
  if (e.restriction !== undefined) return [restrictedField(e, e.restriction, page)];
  const kinds: Record<ElementKind, string[]> = {
    text: [`${f}: String!`],
    url_slug: [`${f}: String!`],
    number: [`${f}: Float`],
    rich_text: [`${f}: _RichText!`],
    asset: [`${f}${page}: _AssetCollection!`],
    modular_content: [`${f}${page}: _ItemCollection!`],
    taxonomy: [`${f}${page}: _TaxonomyTermCollection!`],
    multiple_choice: [`${f}${page}: _MultipleChoiceOptionCollection!`],
    custom: [`${f}: _CustomElement!`],
    date_time: [
      `${f}: DateTime @deprecated(reason: "Use '${f}_with_timezone' instead.")`,
      `${f}_with_timezone: _DateAndTime`,
    ],
  };
  return kinds[e.kind];
}

/** The `where` fields of one element (SPEC 4.4 rule 5: only the filterable kinds). */
function whereFields(e: ModelElement): string[] {
  const f = e.fieldName;
  switch (e.kind) {
    case 'text':
    case 'url_slug':
      return [`${f}: _TextFilter`];
    case 'number':
      return [`${f}: _NumberFilter`];
    case 'date_time':
      return [`${f}: _DateTimeFilter`, `${f}_with_timezone: _DateAndTimeElementFilter`];
    case 'modular_content':
    case 'multiple_choice':
    case 'taxonomy':
      return [`${f}: _ArrayFilter`];
    case 'rich_text':
    case 'asset':
    case 'custom':
      return [];
    default:
      return assertNever(e.kind, 'element kind');
  }
}

/** The `order` fields of one element: scalar kinds only. */
function orderFields(e: ModelElement): string[] {
  const f = e.fieldName;
  switch (e.kind) {
    case 'text':
    case 'url_slug':
    case 'number':
      return [`${f}: _OrderEnum`];
    case 'date_time':
      return [`${f}: _OrderEnum`, `${f}_with_timezone: _DateAndTimeElementOrder`];
    case 'rich_text':
    case 'multiple_choice':
    case 'asset':
    case 'modular_content':
    case 'taxonomy':
    case 'custom':
      return [];
    default:
      return assertNever(e.kind, 'element kind');
  }
}

const block = (head: string, fields: readonly string[]) =>
  fields.length === 0 ? '' : `${head} {\n${fields.map((f) => `  ${f}`).join('\n')}\n}`;

function snippetSdl(s: ModelSnippet, page: string): string {
  return [
    block(
      `type ${s.typeName}`,
      s.elements.flatMap((e) => elementFields(e, page)),
    ),
    block(`input ${s.typeName}_Where`, s.elements.flatMap(whereFields)),
    block(`input ${s.typeName}_Order`, s.elements.flatMap(orderFields)),
    ...restrictionsSdl(s.elements, page),
  ]
    .filter((b) => b !== '')
    .join('\n\n');
}

function typeSdl(t: ModelType, page: string): string {
  const withSnippets = (own: string[], suffix: string, has: (s: ModelSnippet) => boolean) => [
    ...own,
    ...t.snippets.filter(has).map((s) => `${s.fieldName}: ${s.typeName}${suffix}`),
  ];
  const fields = withSnippets(
    ['_system_: _Sys!', ...t.elements.flatMap((e) => elementFields(e, page))],
    '!',
    (s) => s.elements.length > 0,
  );
  // `AND` and `OR` take lists of at least two conditions and nest (today's reference, reference 3.3).
  const where = withSnippets(
    [
      `AND: [${t.typeName}_Where!]`,
      `OR: [${t.typeName}_Where!]`,
      '_system_: _SystemFilter',
      ...t.elements.flatMap(whereFields),
    ],
    '_Where',
    (s) => s.elements.some((e) => whereFields(e).length > 0),
  );
  const order = withSnippets(['_system_: _SystemOrder', ...t.elements.flatMap(orderFields)], '_Order', (s) =>
    s.elements.some((e) => orderFields(e).length > 0),
  );
  return [
    block(`type ${t.typeName} implements _Item`, fields),
    block(`type ${t.typeName}_All`, [`items: [${t.typeName}!]!`, 'offset: Int!', 'limit: Int!', 'totalCount: Int!']),
    block(`input ${t.typeName}_Where`, where),
    block(`input ${t.typeName}_Order`, order),
    ...restrictionsSdl(t.elements, page),
  ].join('\n\n');
}

/** The root query fields of every type (SPEC 4.4; reference 3.2). */
function rootSdl(types: readonly ModelType[], page: string): string {
  const fields = types.flatMap((t) => [
    `${t.rootField}(codename: String, id: Guid, languageFilter: _LanguageFilter): ${t.typeName}`,
    `${t.rootField}_All${page.slice(0, -1)}, languageFilter: _LanguageFilter, where: ${t.typeName}_Where, order: ${t.typeName}_Order): ${t.typeName}_All!`,
  ]);
  // An object type needs a field: a project without content types still has a valid schema.
  if (fields.length === 0) fields.push('"The project has no content types yet."\n  _noContentTypes: Boolean');
  return block('type _RootQuery', fields);
}

/** The whole schema of a project's model in SDL; the model must have no naming problems. */
export function modelSdl(model: GraphqlModel, options: SdlOptions): string {
  const page = `(offset: Int = 0, limit: Int = ${options.defaultLimit})`;
  const types = [...model.types].sort((a, b) => (a.typeName < b.typeName ? -1 : 1));
  const snippets = [...model.snippets]
    .filter((s) => s.elements.length > 0)
    .sort((a, b) => (a.typeName < b.typeName ? -1 : 1));
  return [
    predefinedSdl(options),
    ...snippets.map((s) => snippetSdl(s, page)),
    ...types.map((t) => typeSdl(t, page)),
    rootSdl(types, page),
  ].join('\n\n');
}
