import { z } from 'zod';
import {
  addItem,
  bulkGetItemsWithVariant,
  deleteItem,
  filterItemsWithVariant,
  getItem,
  getVariant,
  listItems,
  listVariantsBy,
  listVariantsOfItem,
  upsertVariant,
} from '@lectern/core';
import { filterBody, itemBody, variantBody } from './content-schemas.ts';
import {
  checkedKey,
  continuationOf,
  continuationToken,
  modelInput,
  pageJson,
  reference,
  tool,
  type AnyTool,
  type McpContext,
} from './tool-kit.ts';

export const itemAndLanguage = {
  item: reference.describe('The content item'),
  language: reference.describe('The language'),
};

/** The core's VariantInput of an item and a language argument. */
export function variantInput(args: z.infer<z.ZodObject<typeof itemAndLanguage>>, context: McpContext) {
  return {
    ...modelInput(context),
    itemKey: checkedKey(args.item, 'ITEM_NOT_FOUND'),
    languageKey: checkedKey(args.language, 'LANGUAGE_NOT_FOUND'),
    version: 'v2' as const,
  };
}

const variantLists = [
  ['list-variants-type-mapi', 'content_type', 'CONTENT_TYPE_NOT_FOUND', 'of a content type', 'content_type'],
  ['list-variants-collection-mapi', 'collection', 'COLLECTION_NOT_FOUND', 'in a collection', 'collection'],
  ['list-variants-space-mapi', 'space', 'SPACE_NOT_FOUND', 'in a space', 'space'],
  [
    'list-variants-components-type-mapi',
    'components',
    'CONTENT_TYPE_NOT_FOUND',
    'holding components of a type',
    'content_type',
  ],
] as const;

/** Items and their language variants: read, list, search, create and fill. */
export const contentTools: readonly AnyTool[] = [
  tool({
    name: 'list-items-mapi',
    title: 'List content items',
    description: 'Content items (language-neutral: name, codename, type, collection), paged 100 a page.',
    input: { continuation_token: continuationToken },
    isReadOnly: true,
    run: async (args, context) =>
      pageJson(
        'items',
        await listItems(context.core, {
          ...modelInput(context),
          continuation: continuationOf(args.continuation_token),
        }),
      ),
  }),
  tool({
    name: 'get-item-mapi',
    title: 'Get a content item with its variants',
    description:
      'A content item (a language-neutral container) and its language variants (the latest version of each, with element values).',
    input: { item: reference },
    isReadOnly: true,
    run: async (args, context) => {
      const key = checkedKey(args.item, 'ITEM_NOT_FOUND');
      const item = await getItem(context.core, { ...modelInput(context), key });
      const variants = await listVariantsOfItem(context.core, { ...modelInput(context), itemKey: key, version: 'v2' });
      return { item, variants };
    },
  }),
  tool({
    name: 'add-content-item-mapi',
    title: 'Create a content item',
    description: 'Creates a content item of a type; then fill its variants with upsert-language-variant-mapi.',
    input: itemBody,
    isReadOnly: false,
    run: async (args, context) => addItem(context.core, { ...modelInput(context), body: args }),
  }),
  tool({
    name: 'delete-content-item-mapi',
    title: 'Delete a content item',
    description: 'Deletes a content item with all its variants.',
    input: { item: reference },
    isReadOnly: false,
    run: async (args, context) => {
      await deleteItem(context.core, { ...modelInput(context), key: checkedKey(args.item, 'ITEM_NOT_FOUND') });
      return { deleted: true };
    },
  }),
  tool({
    name: 'get-latest-variant-mapi',
    title: 'Get the latest version of a variant',
    description: 'The latest version of a language variant, with its element values and workflow step.',
    input: itemAndLanguage,
    isReadOnly: true,
    run: async (args, context) => getVariant(context.core, variantInput(args, context)),
  }),
  tool({
    name: 'get-published-variant-mapi',
    title: 'Get the published version of a variant',
    description: 'The published version of a language variant (an error when none is published).',
    input: itemAndLanguage,
    isReadOnly: true,
    run: async (args, context) => getVariant(context.core, { ...variantInput(args, context), isPublished: true }),
  }),
  tool({
    name: 'upsert-language-variant-mapi',
    title: 'Create or update a language variant',
    description:
      'Creates or updates the variant of an item in a language (Management API PUT …/variants/{language}). ' +
      'Rich text is HTML; a component is an <object type="application/kenticocloud" data-type="component" ' +
      'data-id="<uuid>"></object> in the value plus an entry with that id in `components`. Refusals list each ' +
      'problem with its path, as the Management API does.',
    input: { ...itemAndLanguage, ...variantBody },
    isReadOnly: false,
    run: async (args, context) => {
      const { item: _item, language: _language, ...body } = args;
      return (await upsertVariant(context.core, { ...variantInput(args, context), body })).variant;
    },
  }),
  tool({
    name: 'list-variants-item-mapi',
    title: 'List the variants of an item',
    description: 'Every language variant of one content item (latest versions).',
    input: { item: reference },
    isReadOnly: true,
    run: async (args, context) =>
      listVariantsOfItem(context.core, {
        ...modelInput(context),
        itemKey: checkedKey(args.item, 'ITEM_NOT_FOUND'),
        version: 'v2',
      }),
  }),
  ...variantLists.map(([name, by, notFound, what, arg]) =>
    tool({
      name,
      title: `List variants ${what}`,
      description: `Language variants ${what}, paged 50 a page.`,
      input: { [arg]: reference, continuation_token: continuationToken },
      isReadOnly: true,
      run: async (args, context) => {
        const ref = args[arg] as z.infer<typeof reference>;
        const page = await listVariantsBy(context.core, {
          ...modelInput(context),
          by,
          key: checkedKey(ref, notFound),
          continuation: continuationOf(args['continuation_token'] as string | undefined),
          pageSize: 50,
        });
        return pageJson('variants', page);
      },
    }),
  ),
  tool({
    name: 'filter-variants-mapi',
    title: 'Filter and search variants',
    description:
      'Variants of one language by type, collection, space, workflow step, contributor, completion, publishing ' +
      'state and text (search_phrase), 50 a page; answers item and language ids — read them with ' +
      'bulk-get-items-variants-mapi or get-latest-variant-mapi.',
    input: { ...filterBody, continuation_token: continuationToken },
    isReadOnly: true,
    run: async (args, context) => {
      const { order_by, order_direction, continuation_token, ...filters } = args;
      const body = { filters, ...(order_by ? { order: { by: order_by, direction: order_direction ?? 'asc' } } : {}) };
      const page = await filterItemsWithVariant(context.core, {
        ...modelInput(context),
        body,
        continuation: continuationOf(continuation_token),
      });
      return pageJson('variants', page);
    },
  }),
  tool({
    name: 'bulk-get-items-variants-mapi',
    title: 'Get many variants at once',
    description: 'The latest versions of up to 100 (item, language) pairs with their items, paged.',
    input: {
      variants: z.array(z.object(itemAndLanguage)).min(1).max(100),
      continuation_token: continuationToken,
    },
    isReadOnly: true,
    run: async (args, context) =>
      pageJson(
        'data',
        await bulkGetItemsWithVariant(context.core, {
          ...modelInput(context),
          body: { variants: args.variants },
          continuation: continuationOf(args.continuation_token),
        }),
      ),
  }),
];
