import { GraphQLError } from 'graphql';
import type { DeliveryElement, DeliveryItem, IndexedVariant, RichTextAssetFile } from '@lectern/core';
import type { ModelElement, ModelType, Restriction } from '../schema/content-model.ts';
import type { ItemLoader } from './item-loader.ts';

/**
 * Source objects for the generated schema: an item in Delivery JSON becomes an object whose
 * properties are named like the schema's fields, so graphql-js's default resolver reads them.
 * A field with arguments (a collection) is a function of them, and linked items load lazily
 * through the request's batching loader — only what the query selects is read.
 */
export interface ViewContext {
  /** The schema's content types by codename. */
  readonly types: ReadonlyMap<string, ModelType>;
  /** Display names of languages and content types, by codename. */
  readonly languageNames: ReadonlyMap<string, string>;
  readonly typeNames: ReadonlyMap<string, string>;
  readonly maxLimit: number;
  readonly loader: ItemLoader;
}

/** What an item's components inherit from the item that holds them. */
interface Holder {
  readonly components: Readonly<Record<string, DeliveryItem>>;
  /** The files of its rich text images, by asset id (absent in documents indexed before them). */
  readonly files: Readonly<Record<string, RichTextAssetFile>> | undefined;
  readonly workflow: string;
  readonly workflowStep: string;
}

export interface PageArgs {
  readonly offset?: number | null;
  readonly limit?: number | null;
}

export function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/** Checks `offset` and `limit` (SPEC 4.4 rule 7, SPEC 8 maximum). */
export function pageBounds(args: PageArgs, maxLimit: number): { offset: number; limit: number } {
  const offset = args.offset ?? 0;
  const limit = args.limit ?? 10;
  if (offset < 0) throw badInput(`offset must be 0 or more (got ${offset}).`);
  if (limit < 0 || limit > maxLimit) throw badInput(`limit must be from 0 to ${maxLimit} (got ${limit}).`);
  return { offset, limit };
}

function page<T>(list: readonly T[], args: PageArgs, maxLimit: number) {
  const { offset, limit } = pageBounds(args, maxLimit);
  return { items: list.slice(offset, offset + limit), offset, limit, totalCount: list.length };
}

const sys = (fields: Record<string, unknown>) => ({ _system_: fields });
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/**
 * Only the views a restricted element allows: an item linked before its type was disallowed is
 * left out (a union or a single type could not hold it), as one the index does not hold.
 */
function allowedViews(views: Record<string, unknown>[], restriction: Restriction | undefined) {
  return restriction === undefined
    ? views
    : views.filter((v) => restriction.typeNames.includes(String(v['__typename'])));
}

/** Linked items by codename, in order, skipping what the index does not hold (unpublished, deleted). */
async function linkedViews(codenames: readonly string[], ctx: ViewContext, holder: Holder) {
  const variants = await ctx.loader.loadMany(codenames);
  return variants.flatMap((v) => {
    const view = itemView(v.item, ctx, {
      components: v.components,
      files: v.richTextAssets,
      workflow: v.item.system.workflow ?? holder.workflow,
      workflowStep: v.item.system.workflow_step ?? holder.workflowStep,
    });
    return view === null ? [] : [view];
  });
}

function assetView(asset: Record<string, unknown>, maxLimit: number) {
  const renditions = Object.entries((asset['renditions'] ?? {}) as Record<string, Record<string, unknown>>).map(
    ([preset, r]) => ({ ...r, preset }),
  );
  return {
    url: String(asset['url'] ?? ''),
    name: asset['name'] ?? null,
    description: asset['description'] ?? null,
    type: asset['type'] ?? null,
    size: numberOrNull(asset['size']),
    width: numberOrNull(asset['width']),
    height: numberOrNull(asset['height']),
    renditions: (args: PageArgs) => page(renditions, args, maxLimit),
  };
}

function richTextView(
  element: DeliveryElement,
  ctx: ViewContext,
  holder: Holder,
  restriction: Restriction | undefined,
) {
  const inline = strings(element['modular_content']);
  const images = Object.values((element['images'] ?? {}) as Record<string, Record<string, unknown>>).map((i) => {
    const imageId = String(i['image_id'] ?? '');
    // The file's name, type and size, as `_Asset` answers them (SPEC 2.8).
    const file = holder.files?.[imageId];
    return {
      imageId,
      url: String(i['url'] ?? ''),
      name: file?.name ?? null,
      description: i['description'] ?? null,
      type: file?.type ?? null,
      size: file?.size ?? null,
      width: numberOrNull(i['width']),
      height: numberOrNull(i['height']),
    };
  });
  const links = Object.values((element['links'] ?? {}) as Record<string, { codename?: unknown }>);
  return {
    html: typeof element.value === 'string' ? element.value : '',
    assets: (args: PageArgs) => page(images, args, ctx.maxLimit),
    components: (args: PageArgs) => {
      const views = inline.flatMap((c) => {
        const component = holder.components[c];
        const view = component === undefined ? null : itemView(component, ctx, holder);
        return view === null ? [] : [view];
      });
      return page(allowedViews(views, restriction), args, ctx.maxLimit);
    },
    linkedItems: async (args: PageArgs) => {
      pageBounds(args, ctx.maxLimit);
      const codenames = inline.filter((c) => holder.components[c] === undefined);
      return page(allowedViews(await linkedViews(codenames, ctx, holder), restriction), args, ctx.maxLimit);
    },
    itemHyperlinks: async (args: PageArgs) => {
      pageBounds(args, ctx.maxLimit);
      const codenames = [...new Set(links.flatMap((l) => (typeof l.codename === 'string' ? [l.codename] : [])))];
      return page(await linkedViews(codenames, ctx, holder), args, ctx.maxLimit);
    },
  };
}

/** The fields of one element on its item view (two for date and time). */
function elementEntries(
  e: ModelElement,
  element: DeliveryElement | undefined,
  ctx: ViewContext,
  holder: Holder,
): [string, unknown][] {
  const value = element?.value ?? null;
  const terms = () => (args: PageArgs) =>
    page(
      records(value).map((t) => sys({ codename: t['codename'], name: t['name'] })),
      args,
      ctx.maxLimit,
    );
  switch (e.kind) {
    case 'text':
    case 'url_slug':
      return [[e.fieldName, typeof value === 'string' ? value : '']];
    case 'number':
      return [[e.fieldName, numberOrNull(value)]];
    case 'rich_text':
      return [
        [e.fieldName, richTextView(element ?? { type: 'rich_text', name: '', value: '' }, ctx, holder, e.restriction)],
      ];
    case 'asset':
      return [
        [
          e.fieldName,
          (args: PageArgs) =>
            page(
              records(value).map((a) => assetView(a, ctx.maxLimit)),
              args,
              ctx.maxLimit,
            ),
        ],
      ];
    case 'modular_content':
      return [
        [
          e.fieldName,
          async (args: PageArgs) => {
            pageBounds(args, ctx.maxLimit);
            const views = await linkedViews(strings(value), ctx, holder);
            return page(allowedViews(views, e.restriction), args, ctx.maxLimit);
          },
        ],
      ];
    case 'taxonomy':
    case 'multiple_choice':
      return [[e.fieldName, terms()]];
    case 'custom':
      return [[e.fieldName, { value: value === null ? null : String(value) }]];
    case 'date_time':
      return [
        [e.fieldName, value],
        [`${e.fieldName}_with_timezone`, { value, display_timezone: element?.['display_timezone'] ?? null }],
      ];
  }
}

/** The view of an item or component; null when its type is not in the schema. */
export function itemView(item: DeliveryItem, ctx: ViewContext, holder: Holder): Record<string, unknown> | null {
  const type = ctx.types.get(item.system.type);
  if (type === undefined) return null;
  const s = item.system;
  const view: Record<string, unknown> = {
    __typename: type.typeName,
    _system_: {
      id: s.id,
      name: s.name,
      codename: s.codename,
      lastModified: s.last_modified,
      language: sys({ codename: s.language, name: ctx.languageNames.get(s.language) ?? s.language }),
      type: sys({ codename: s.type, name: ctx.typeNames.get(s.type) ?? s.type }),
      collection: sys({ codename: s.collection }),
      // Components have no workflow of their own: they share the item that holds them.
      workflow: sys({ codename: s.workflow ?? holder.workflow }),
      workflowStep: sys({ codename: s.workflow_step ?? holder.workflowStep }),
    },
  };
  for (const e of type.elements) {
    for (const [field, value] of elementEntries(e, item.elements[e.key], ctx, holder)) view[field] = value;
  }
  for (const snippet of type.snippets) {
    view[snippet.fieldName] = Object.fromEntries(
      snippet.elements.flatMap((e) => elementEntries(e, item.elements[e.key], ctx, holder)),
    );
  }
  return view;
}

/** The view of a variant the index returned, with its components. */
export function variantView(variant: IndexedVariant, ctx: ViewContext) {
  return itemView(variant.item, ctx, {
    components: variant.components,
    files: variant.richTextAssets,
    workflow: variant.item.system.workflow ?? 'default',
    workflowStep: variant.item.system.workflow_step ?? 'published',
  });
}
