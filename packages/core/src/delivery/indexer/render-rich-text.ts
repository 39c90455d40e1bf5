import type { StoredComponent } from '../../content/variants/variant-record.ts';
import type { DeliveryChannel, RichTextAssetFile } from '../index-port.ts';
import type { RenderContext } from './render-context.ts';

/** What rendering one rich text value found, for the document's dependency lists. */
export interface RichTextFound {
  readonly itemIds: string[];
  readonly assetIds: string[];
  /** Codenames of inserted items (`data-rel="link"`) in document order. */
  readonly insertedCodenames: string[];
  /** Ids of those items. */
  readonly insertedItemIds: string[];
  /** Codenames of hyperlinked items. */
  readonly linkedCodenames: string[];
  /** Components placed, in document order, with their Delivery codename. */
  readonly components: { codename: string; component: StoredComponent }[];
  /** The file of each image shown, by asset id (GraphQL's `_RichTextAsset`). */
  readonly files: Record<string, RichTextAssetFile>;
}

/** `n` + id with dashes as underscores; the `n` only when the id starts with a digit (recorded responses). */
export function componentCodename(id: string): string {
  const base = id.toLowerCase().replace(/-/g, '_');
  return /^[0-9]/.test(base) ? `n${base}` : base;
}

const objectMediaType = 'application/kenticocloud';

function attributesOf(tag: string): [string, string][] {
  return [...tag.matchAll(/([a-zA-Z0-9_-]+)="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

function unescape(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function openTag(name: string, attrs: readonly (readonly [string, string])[]): string {
  return `<${name}${attrs.map(([n, v]) => ` ${n}="${escapeAttribute(v)}"`).join('')}>`;
}

/**
 * Turns a stored rich text value (the Management API response form, SPEC 2.4) into the Delivery
 * form (reference §1.6): item objects carry `data-rel` and `data-codename`, components become
 * item objects with their codename, figures get the image URL, links to items and assets an
 * `href`. Returns the element with `images`, `links` and `modular_content`.
 */
export async function renderRichText(options: {
  ctx: RenderContext;
  html: string;
  components: readonly StoredComponent[];
  languageId: string;
  channel: DeliveryChannel;
}): Promise<{
  value: string;
  images: Record<string, unknown>;
  links: Record<string, unknown>;
  modularContent: string[];
  found: RichTextFound;
}> {
  const { ctx, languageId, channel } = options;
  const found: RichTextFound = {
    itemIds: [],
    assetIds: [],
    insertedCodenames: [],
    insertedItemIds: [],
    linkedCodenames: [],
    components: [],
    files: {},
  };
  const html = options.html === '' ? '<p><br></p>' : options.html.replace(/<br\/>/g, '<br>');
  const ids = [...html.matchAll(/data-(?:item-)?id="([0-9a-f-]{36})"/g)].map((m) => m[1] ?? '');
  await ctx.preloadItems(ids);
  const images: Record<string, unknown> = {};
  const links: Record<string, unknown> = {};
  const modularContent: string[] = [];
  const addUnique = (list: string[], value: string) => {
    if (!list.includes(value)) list.push(value);
  };
  const pieces: string[] = [];
  let last = 0;
  const pattern = /<object [^>]*><\/object>|<figure [^>]*><img [^>]*><\/figure>|<a [^>]*>/g;
  for (const match of html.matchAll(pattern)) {
    pieces.push(html.slice(last, match.index));
    last = match.index + match[0].length;
    const tag = match[0];
    if (tag.startsWith('<object')) {
      const attrs = new Map(attributesOf(tag));
      const id = attrs.get('data-id') ?? '';
      if (attrs.get('data-type') === 'component') {
        const component = options.components.find((c) => c.id.toLowerCase() === id.toLowerCase());
        if (!component) continue;
        const codename = componentCodename(id);
        found.components.push({ codename, component });
        addUnique(modularContent, codename);
        pieces.push(
          `<object type="${objectMediaType}" data-type="item" data-rel="component" data-codename="${codename}"></object>`,
        );
        continue;
      }
      const item = await ctx.item(id);
      addUnique(found.itemIds, id);
      if (!item) continue;
      addUnique(found.insertedCodenames, item.codename);
      addUnique(found.insertedItemIds, id);
      addUnique(modularContent, item.codename);
      pieces.push(
        `<object type="${objectMediaType}" data-type="item" data-rel="link" data-codename="${escapeAttribute(item.codename)}"></object>`,
      );
      continue;
    }
    if (tag.startsWith('<figure')) {
      const id = new Map(attributesOf(tag)).get('data-asset-id') ?? '';
      addUnique(found.assetIds, id);
      const view = await ctx.asset(id);
      if (!view) continue;
      const description = view.asset.descriptions[languageId] ?? null;
      images[id] = {
        image_id: id,
        description,
        url: view.url,
        width: view.file.imageWidth,
        height: view.file.imageHeight,
      };
      found.files[id] = { name: view.file.fileName, type: view.file.contentType, size: view.file.size };
      const ids: [string, string][] = [
        ['data-asset-id', id],
        ['data-image-id', id],
      ];
      pieces.push(
        `${openTag('figure', ids)}${openTag('img', [['src', view.url], ...ids, ['alt', description ?? '']])}</figure>`,
      );
      continue;
    }
    const attrs = attributesOf(tag).map(([n, v]) => [n, unescape(v)] as [string, string]);
    const get = (name: string) => attrs.find(([n]) => n === name)?.[1];
    const itemId = get('data-item-id');
    const assetId = get('data-asset-id');
    const email = get('data-email-address');
    const phone = get('data-phone-number');
    let href: string | undefined;
    if (itemId !== undefined) {
      href = '';
      addUnique(found.itemIds, itemId);
      const item = await ctx.item(itemId);
      if (item) {
        addUnique(found.linkedCodenames, item.codename);
        links[itemId] = {
          codename: item.codename,
          type: ctx.model.type(item.typeId)?.codename ?? '',
          url_slug: await ctx.urlSlugOf(item, languageId, channel),
        };
      }
    } else if (assetId !== undefined) {
      addUnique(found.assetIds, assetId);
      href = (await ctx.asset(assetId))?.url ?? '';
    } else if (email !== undefined) {
      const subject = get('data-email-subject');
      href = `mailto:${email}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}`;
    } else if (phone !== undefined) href = `tel:${phone}`;
    const out = attrs.filter(([n]) => n !== 'href' || href === undefined);
    if (href !== undefined) {
      const at = out.findIndex(
        ([n]) =>
          (n.startsWith('data-') && n.endsWith('-id')) || n === 'data-email-address' || n === 'data-phone-number',
      );
      out.splice(at + 1, 0, ['href', href]);
    }
    if (get('data-new-window') === 'true' && get('target') === undefined)
      out.push(['target', '_blank'], ['rel', 'noopener noreferrer']);
    pieces.push(openTag('a', out));
  }
  pieces.push(html.slice(last));
  return { value: pieces.join(''), images, links, modularContent, found };
}
