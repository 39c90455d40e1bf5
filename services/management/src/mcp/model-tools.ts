import type { z } from 'zod';
import {
  addContentType,
  addSnippet,
  addTaxonomy,
  collectionsJson,
  contentTypeJson,
  getContentType,
  getSnippet,
  getTaxonomy,
  languageJson,
  listCollections,
  listContentTypes,
  listLanguages,
  listSnippets,
  listSpaces,
  listTaxonomies,
  listWorkflows,
  paginate,
  snippetJson,
  spaceJson,
  taxonomyJson,
  workflowJson,
  type CoreDeps,
  type ModelInput,
  type RecordKey,
} from '@lectern/core';
import type { ErrorCode } from '@lectern/errors';
import { contentTypeBody, snippetBody, taxonomyBody } from './model-schemas.ts';
import {
  checkedKey,
  continuationOf,
  continuationToken,
  modelInput,
  pageJson,
  reference,
  tool,
  type AnyTool,
} from './tool-kit.ts';

interface Described {
  readonly name: string;
  readonly title: string;
  readonly description: string;
}

/** A model list read whole by its operation, answered a page at a time (100, as the API pages it). */
function pagedList<R>(
  spec: Described & {
    readonly key: string;
    readonly list: (core: CoreDeps, input: ModelInput) => Promise<R[]>;
    readonly json: (record: R) => unknown;
  },
): AnyTool {
  return tool({
    ...spec,
    input: { continuation_token: continuationToken },
    isReadOnly: true,
    run: async (args, context) => {
      const page = paginate(await spec.list(context.core, modelInput(context)), {
        continuation: continuationOf(args.continuation_token),
      });
      return pageJson(spec.key, { ...page, items: page.items.map(spec.json) });
    },
  });
}

/** One model object by a reference argument named `argument`. */
function getOne<R>(
  spec: Described & {
    readonly argument: string;
    readonly notFound: ErrorCode;
    readonly get: (core: CoreDeps, input: ModelInput & { key: RecordKey }) => Promise<R>;
    readonly json: (record: R) => unknown;
  },
): AnyTool {
  return tool({
    ...spec,
    input: { [spec.argument]: reference },
    isReadOnly: true,
    run: async (args, context) => {
      const key = checkedKey(args[spec.argument] as z.infer<typeof reference>, spec.notFound);
      return spec.json(await spec.get(context.core, { ...modelInput(context), key }));
    },
  });
}

/** A model object created from the tool's arguments, which are the Management API body. */
function addOne<R>(
  spec: Described & {
    readonly input: z.ZodRawShape;
    readonly add: (core: CoreDeps, input: ModelInput & { body: unknown }) => Promise<R>;
    readonly json: (record: R) => unknown;
  },
): AnyTool {
  return tool({
    ...spec,
    isReadOnly: false,
    run: async (args, context) => spec.json(await spec.add(context.core, { ...modelInput(context), body: args })),
  });
}

/** A whole, unpaged list (the API answers these whole too). */
function wholeList(spec: Described & { readonly read: (core: CoreDeps, input: ModelInput) => Promise<unknown> }) {
  return tool({
    ...spec,
    input: {},
    isReadOnly: true,
    run: (_args, context) => spec.read(context.core, modelInput(context)),
  });
}

/** Read and extend the content model: types, snippets, taxonomies, languages, collections, workflows, spaces. */
export const modelTools: readonly AnyTool[] = [
  pagedList({
    name: 'list-content-types-mapi',
    title: 'List content types',
    description: 'Content types of the environment with their elements (paged, 100 a page).',
    key: 'types',
    list: listContentTypes,
    json: contentTypeJson,
  }),
  getOne({
    name: 'get-type-mapi',
    title: 'Get a content type',
    description: 'One content type with its elements and content groups.',
    argument: 'type',
    notFound: 'CONTENT_TYPE_NOT_FOUND',
    get: getContentType,
    json: contentTypeJson,
  }),
  addOne({
    name: 'add-content-type-mapi',
    title: 'Create a content type',
    description:
      'Creates a content type (Management API POST /types). Element kinds: text, rich_text, number, date_time, ' +
      'multiple_choice, asset, modular_content, subpages, taxonomy, url_slug, custom, guidelines, snippet.',
    input: contentTypeBody,
    add: addContentType,
    json: contentTypeJson,
  }),
  pagedList({
    name: 'list-content-type-snippets-mapi',
    title: 'List content type snippets',
    description: 'Content type snippets (reusable groups of elements), paged.',
    key: 'snippets',
    list: listSnippets,
    json: snippetJson,
  }),
  getOne({
    name: 'get-type-snippet-mapi',
    title: 'Get a content type snippet',
    description: 'One content type snippet with its elements.',
    argument: 'snippet',
    notFound: 'SNIPPET_NOT_FOUND',
    get: getSnippet,
    json: snippetJson,
  }),
  addOne({
    name: 'add-content-type-snippet-mapi',
    title: 'Create a content type snippet',
    description: 'Creates a content type snippet (Management API POST /snippets).',
    input: snippetBody,
    add: addSnippet,
    json: snippetJson,
  }),
  pagedList({
    name: 'list-taxonomy-groups-mapi',
    title: 'List taxonomy groups',
    description: 'Taxonomy groups with their terms, paged.',
    key: 'taxonomies',
    list: listTaxonomies,
    json: taxonomyJson,
  }),
  getOne({
    name: 'get-taxonomy-group-mapi',
    title: 'Get a taxonomy group',
    description: 'One taxonomy group with its terms.',
    argument: 'taxonomy_group',
    notFound: 'TAXONOMY_NOT_FOUND',
    get: getTaxonomy,
    json: taxonomyJson,
  }),
  addOne({
    name: 'add-taxonomy-group-mapi',
    title: 'Create a taxonomy group',
    description: 'Creates a taxonomy group with its terms (Management API POST /taxonomies).',
    input: taxonomyBody,
    add: addTaxonomy,
    json: taxonomyJson,
  }),
  pagedList({
    name: 'list-languages-mapi',
    title: 'List languages',
    description: 'Languages of the environment (codename, fallback, whether active and default), paged.',
    key: 'languages',
    list: listLanguages,
    json: languageJson,
  }),
  wholeList({
    name: 'list-collections-mapi',
    title: 'List collections',
    description: 'Collections of the environment (every item belongs to one).',
    read: async (core, input) => collectionsJson(await listCollections(core, input)),
  }),
  wholeList({
    name: 'list-workflows-mapi',
    title: 'List workflows',
    description: 'Workflows with their steps (and the published, scheduled and archived steps).',
    read: async (core, input) => (await listWorkflows(core, input)).map(workflowJson),
  }),
  wholeList({
    name: 'list-spaces-mapi',
    title: 'List spaces',
    description: 'Spaces of the environment (channels such as web sites, each with its collections).',
    read: async (core, input) => (await listSpaces(core, input)).map(spaceJson),
  }),
];
