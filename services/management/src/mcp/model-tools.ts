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
} from '@lectern/core';
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

const paged = { continuation_token: continuationToken };

/** Read and extend the content model: types, snippets, taxonomies, languages, collections, workflows, spaces. */
export const modelTools: readonly AnyTool[] = [
  tool({
    name: 'list-content-types-mapi',
    title: 'List content types',
    description: 'Content types of the environment with their elements (paged, 100 a page).',
    input: paged,
    isReadOnly: true,
    run: async (args, context) => {
      const page = paginate(await listContentTypes(context.core, modelInput(context)), {
        continuation: continuationOf(args.continuation_token),
      });
      return pageJson('types', { ...page, items: page.items.map(contentTypeJson) });
    },
  }),
  tool({
    name: 'get-type-mapi',
    title: 'Get a content type',
    description: 'One content type with its elements and content groups.',
    input: { type: reference },
    isReadOnly: true,
    run: async (args, context) =>
      contentTypeJson(
        await getContentType(context.core, {
          ...modelInput(context),
          key: checkedKey(args.type, 'CONTENT_TYPE_NOT_FOUND'),
        }),
      ),
  }),
  tool({
    name: 'add-content-type-mapi',
    title: 'Create a content type',
    description:
      'Creates a content type (Management API POST /types). Element kinds: text, rich_text, number, date_time, ' +
      'multiple_choice, asset, modular_content, subpages, taxonomy, url_slug, custom, guidelines, snippet.',
    input: contentTypeBody,
    isReadOnly: false,
    run: async (args, context) =>
      contentTypeJson(await addContentType(context.core, { ...modelInput(context), body: args })),
  }),
  tool({
    name: 'list-content-type-snippets-mapi',
    title: 'List content type snippets',
    description: 'Content type snippets (reusable groups of elements), paged.',
    input: paged,
    isReadOnly: true,
    run: async (args, context) => {
      const page = paginate(await listSnippets(context.core, modelInput(context)), {
        continuation: continuationOf(args.continuation_token),
      });
      return pageJson('snippets', { ...page, items: page.items.map(snippetJson) });
    },
  }),
  tool({
    name: 'get-type-snippet-mapi',
    title: 'Get a content type snippet',
    description: 'One content type snippet with its elements.',
    input: { snippet: reference },
    isReadOnly: true,
    run: async (args, context) =>
      snippetJson(
        await getSnippet(context.core, { ...modelInput(context), key: checkedKey(args.snippet, 'SNIPPET_NOT_FOUND') }),
      ),
  }),
  tool({
    name: 'add-content-type-snippet-mapi',
    title: 'Create a content type snippet',
    description: 'Creates a content type snippet (Management API POST /snippets).',
    input: snippetBody,
    isReadOnly: false,
    run: async (args, context) => snippetJson(await addSnippet(context.core, { ...modelInput(context), body: args })),
  }),
  tool({
    name: 'list-taxonomy-groups-mapi',
    title: 'List taxonomy groups',
    description: 'Taxonomy groups with their terms, paged.',
    input: paged,
    isReadOnly: true,
    run: async (args, context) => {
      const page = paginate(await listTaxonomies(context.core, modelInput(context)), {
        continuation: continuationOf(args.continuation_token),
      });
      return pageJson('taxonomies', { ...page, items: page.items.map(taxonomyJson) });
    },
  }),
  tool({
    name: 'get-taxonomy-group-mapi',
    title: 'Get a taxonomy group',
    description: 'One taxonomy group with its terms.',
    input: { taxonomy_group: reference },
    isReadOnly: true,
    run: async (args, context) =>
      taxonomyJson(
        await getTaxonomy(context.core, {
          ...modelInput(context),
          key: checkedKey(args.taxonomy_group, 'TAXONOMY_NOT_FOUND'),
        }),
      ),
  }),
  tool({
    name: 'add-taxonomy-group-mapi',
    title: 'Create a taxonomy group',
    description: 'Creates a taxonomy group with its terms (Management API POST /taxonomies).',
    input: taxonomyBody,
    isReadOnly: false,
    run: async (args, context) => taxonomyJson(await addTaxonomy(context.core, { ...modelInput(context), body: args })),
  }),
  tool({
    name: 'list-languages-mapi',
    title: 'List languages',
    description: 'Languages of the environment (codename, fallback, whether active and default), paged.',
    input: paged,
    isReadOnly: true,
    run: async (args, context) => {
      const page = paginate(await listLanguages(context.core, modelInput(context)), {
        continuation: continuationOf(args.continuation_token),
      });
      return pageJson('languages', { ...page, items: page.items.map(languageJson) });
    },
  }),
  tool({
    name: 'list-collections-mapi',
    title: 'List collections',
    description: 'Collections of the environment (every item belongs to one).',
    input: {},
    isReadOnly: true,
    run: async (_args, context) => collectionsJson(await listCollections(context.core, modelInput(context))),
  }),
  tool({
    name: 'list-workflows-mapi',
    title: 'List workflows',
    description: 'Workflows with their steps (and the published, scheduled and archived steps).',
    input: {},
    isReadOnly: true,
    run: async (_args, context) => (await listWorkflows(context.core, modelInput(context))).map(workflowJson),
  }),
  tool({
    name: 'list-spaces-mapi',
    title: 'List spaces',
    description: 'Spaces of the environment (channels such as web sites, each with its collections).',
    input: {},
    isReadOnly: true,
    run: async (_args, context) => (await listSpaces(context.core, modelInput(context))).map(spaceJson),
  }),
];
