import { assertNever } from '@lectern/errors';
import type { ContentItemRecord } from '../../content/items/item-record.ts';
import type { StoredComponent, StoredElements, VariantRecord } from '../../content/variants/variant-record.ts';
import type { DeliveryChannel, DeliveryElement, DeliveryItem, RichTextAssetFile } from '../index-port.ts';
import { defaultPresetCodename, deliveryRendition } from '../../content/assets/rendition-query.ts';
import { deliveryKind, elementName, type FlatElement } from './model-view.ts';
import { RenderContext } from './render-context.ts';
import { renderRichText } from './render-rich-text.ts';
import { deliveryTime } from './times.ts';
import type { IndexDocument } from './writer-port.ts';

/** Components nest at most this deep (DESIGN.md limits); deeper ones are not rendered. */
const maxComponentDepth = 6;

interface Collected {
  linked: string[];
  /** Ids of the items `linked` names (linked-items and subpages elements, inserted items). */
  linkedIds: string[];
  uses: string[];
  itemIds: string[];
  assetIds: string[];
  components: Record<string, DeliveryItem>;
  files: Record<string, RichTextAssetFile>;
}

function addUnique(list: string[], values: readonly string[]) {
  for (const v of values) if (!list.includes(v)) list.push(v);
}

function ids(value: unknown): string[] {
  return Array.isArray(value)
    ? value.map((v) => (v as { id?: unknown }).id).filter((id): id is string => typeof id === 'string')
    : [];
}

interface StoredAssetRef {
  id: string;
  renditions?: { id: string }[];
}

/**
 * The `renditions` of an asset in an element: the renditions the variant chose for it, keyed by
 * preset codename. Kontent.ai has one preset (`default`), so the first chosen rendition that
 * still belongs to the asset is it.
 */
async function renditionsOf(ctx: RenderContext, ref: StoredAssetRef): Promise<Record<string, unknown>> {
  for (const { id } of ref.renditions ?? []) {
    const r = await ctx.rendition(id);
    if (r && r.body.asset_id === ref.id) return { [defaultPresetCodename]: deliveryRendition(ctx.projectId, r) };
  }
  return {};
}

interface ElementsInput {
  ctx: RenderContext;
  typeId: string;
  elements: StoredElements;
  languageId: string;
  languageCodename: string;
  channel: DeliveryChannel;
  collection: string;
  lastModified: string;
  collected: Collected;
  depth: number;
}

async function renderElement(e: FlatElement, input: ElementsInput): Promise<DeliveryElement> {
  const { ctx, collected } = input;
  const stored = input.elements[e.def.id];
  const value = stored?.value;
  const base = { type: deliveryKind(e.def.type), name: elementName(e.def) };
  switch (e.def.type) {
    case 'text':
    case 'url_slug':
      return { ...base, value: typeof value === 'string' ? value : '' };
    case 'number':
      return { ...base, value: typeof value === 'number' ? value : null };
    case 'custom':
      return { ...base, value: typeof value === 'string' ? value : null };
    case 'date_time':
      return {
        ...base,
        value: typeof value === 'string' ? value : null,
        display_timezone: stored?.display_timezone ?? null,
      };
    case 'multiple_choice': {
      const options = (e.def['options'] ?? []) as { id: string; name: string; codename: string }[];
      return {
        ...base,
        value: ids(value)
          .map((id) => options.find((o) => o.id === id))
          .filter((o) => o !== undefined)
          .map((o) => ({ name: o.name, codename: o.codename })),
      };
    }
    case 'taxonomy': {
      const groupId = (e.def['taxonomy_group'] as { id: string } | null)?.id ?? '';
      return {
        ...base,
        taxonomy_group: ctx.model.taxonomyCodename(groupId),
        value: ids(value)
          .map((id) => ctx.model.term(id))
          .filter((t) => t !== undefined)
          .map((t) => ({ name: t.name, codename: t.codename })),
      };
    }
    case 'asset': {
      const out: unknown[] = [];
      for (const ref of Array.isArray(value) ? (value as StoredAssetRef[]) : []) {
        const id = ref.id;
        addUnique(collected.assetIds, [id]);
        const view = await ctx.asset(id);
        if (!view) continue;
        out.push({
          name: view.file.fileName,
          description: view.asset.descriptions[input.languageId] ?? null,
          type: view.file.contentType,
          size: view.file.size,
          url: view.url,
          width: view.file.imageWidth,
          height: view.file.imageHeight,
          renditions: await renditionsOf(ctx, ref),
        });
      }
      return { ...base, value: out };
    }
    case 'modular_content':
    case 'subpages': {
      const itemIds = ids(value);
      await ctx.preloadItems(itemIds);
      addUnique(collected.itemIds, itemIds);
      const codenames: string[] = [];
      for (const id of itemIds) {
        const item = await ctx.item(id);
        if (item) codenames.push(item.codename);
      }
      addUnique(collected.linked, codenames);
      addUnique(collected.linkedIds, itemIds);
      addUnique(collected.uses, codenames);
      return { ...base, value: codenames };
    }
    case 'rich_text': {
      const rendered = await renderRichText({
        ctx,
        html: typeof value === 'string' ? value : '',
        components: stored?.components ?? [],
        languageId: input.languageId,
        channel: input.channel,
      });
      const f = rendered.found;
      addUnique(collected.itemIds, f.itemIds);
      addUnique(collected.assetIds, f.assetIds);
      addUnique(collected.linked, f.insertedCodenames);
      addUnique(collected.linkedIds, f.insertedItemIds);
      addUnique(collected.uses, [...f.insertedCodenames, ...f.linkedCodenames]);
      Object.assign(collected.files, f.files);
      for (const { codename, component } of f.components) {
        if (input.depth >= maxComponentDepth) continue;
        collected.components[codename] = await renderComponent(component, codename, input);
      }
      return {
        ...base,
        images: rendered.images,
        links: rendered.links,
        modular_content: rendered.modularContent,
        value: rendered.value,
      };
    }
    case 'guidelines':
    case 'snippet':
      // Not delivered (the model view expands snippets and leaves guidelines out); kept as stored.
      return { ...base, value: value ?? null };
    default:
      return assertNever(e.def.type, 'element type');
  }
}

async function renderElements(input: ElementsInput): Promise<Record<string, DeliveryElement>> {
  const out: Record<string, DeliveryElement> = {};
  for (const e of input.ctx.model.elementsOf(input.typeId)) out[e.key] = await renderElement(e, input);
  return out;
}

async function renderComponent(
  component: StoredComponent,
  codename: string,
  parent: ElementsInput,
): Promise<DeliveryItem> {
  const type = parent.ctx.model.type(component.type.id);
  return {
    system: {
      id: component.id,
      name: component.id,
      codename,
      language: parent.languageCodename,
      type: type?.codename ?? '',
      collection: parent.collection,
      sitemap_locations: [],
      last_modified: parent.lastModified,
    },
    elements: await renderElements({
      ...parent,
      typeId: component.type.id,
      elements: component.elements,
      depth: parent.depth + 1,
    }),
  };
}

/** Codenames a document's read-ahead hint holds at most. */
const maxNextLinked = 100;

/**
 * `nextLinkedItemCodenames`: what the linked items (`linkedIds`) link to through their
 * linked-items and subpages elements, in any language the channel shows, without `known`. Rich
 * text of the linked items is not parsed for it (the hint may be incomplete; readers fetch what
 * it missed). Reads are batched: every linked item's variants at once, then every target item.
 */
async function nextLinkedCodenames(
  ctx: RenderContext,
  channel: DeliveryChannel,
  linkedIds: readonly string[],
  known: readonly string[],
): Promise<string[]> {
  if (linkedIds.length === 0) return [];
  const linked = await Promise.all(
    linkedIds.map(async (id) => ({ item: await ctx.item(id), variants: await ctx.variantsOf(id) })),
  );
  const targetIds = new Set<string>();
  for (const { item, variants } of linked) {
    if (!item) continue;
    const elements = ctx.model
      .elementsOf(item.typeId)
      .filter((e) => e.def.type === 'modular_content' || e.def.type === 'subpages');
    for (const variant of variants) {
      const version = RenderContext.versionOf(variant, channel);
      if (!version) continue;
      for (const e of elements) for (const id of ids(version.elements[e.def.id]?.value)) targetIds.add(id);
    }
  }
  await ctx.preloadItems([...targetIds]);
  const seen = new Set(known);
  const out: string[] = [];
  for (const id of targetIds) {
    const target = await ctx.item(id);
    if (!target || seen.has(target.codename)) continue;
    seen.add(target.codename);
    out.push(target.codename);
    if (out.length === maxNextLinked) break;
  }
  return out;
}

/**
 * Renders one variant for one channel exactly as the Delivery API returns it, or null when the
 * channel has no version of it (never published) or its language or type is gone.
 */
export async function renderVariant(options: {
  ctx: RenderContext;
  item: ContentItemRecord;
  variant: VariantRecord;
  channel: DeliveryChannel;
}): Promise<IndexDocument | null> {
  const { ctx, item, variant, channel } = options;
  const language = ctx.model.language(variant.languageId);
  const type = ctx.model.type(item.typeId);
  const version = RenderContext.versionOf(variant, channel);
  if (!language || !type || !version) return null;
  const collection = ctx.model.collectionCodename(item.collectionId);
  const lastModified = deliveryTime(version.lastModified);
  const collected: Collected = {
    linked: [],
    linkedIds: [],
    uses: [],
    itemIds: [],
    assetIds: [],
    components: {},
    files: {},
  };
  const elements = await renderElements({
    ctx,
    typeId: item.typeId,
    elements: version.elements,
    languageId: language.id,
    languageCodename: language.codename,
    channel,
    collection,
    lastModified,
    collected,
    depth: 0,
  });
  const next = await nextLinkedCodenames(ctx, channel, collected.linkedIds, [item.codename, ...collected.linked]);
  return {
    itemId: item.id,
    language: language.codename,
    item: {
      system: {
        id: item.id,
        name: item.name,
        codename: item.codename,
        language: language.codename,
        type: type.codename,
        collection,
        sitemap_locations: [],
        last_modified: lastModified,
        workflow: ctx.model.workflowCodename(version.workflowId),
        workflow_step: ctx.model.stepCodename(version.workflowId, version.stepId),
      },
      elements,
    },
    linkedItemCodenames: collected.linked,
    ...(next.length === 0 ? {} : { nextLinkedItemCodenames: next }),
    components: collected.components,
    // Only when there are images: other documents keep the body (and its hash) they had.
    ...(Object.keys(collected.files).length === 0 ? {} : { richTextAssets: collected.files }),
    dependsOnItemIds: collected.itemIds.filter((id) => id !== item.id),
    assetIds: collected.assetIds,
    usesItemCodenames: collected.uses,
  };
}
