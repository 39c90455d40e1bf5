import type { UnitOfWork } from '../ports/store.ts';
import type { DeliveryItem } from '../delivery/index-port.ts';
import { ModelView } from '../delivery/indexer/model-view.ts';
import { RenderContext } from '../delivery/indexer/render-context.ts';
import { renderVariant } from '../delivery/indexer/render-variant.ts';
import { words } from './hashed-embedder.ts';
import type { RecsEntry } from './recs-port.ts';

/** An entry before its embedding. */
export type RenderedEntry = Omit<RecsEntry, 'embedding'>;

/**
 * The text an entry's embedding is made of: its text and its properties, one per line. Its first
 * line is the item's name (`entryOf`), which embedding providers weight up.
 */
export const embeddedText = (e: Pick<RecsEntry, 'text' | 'properties'>): string =>
  `${e.text}\n${e.properties.join(' ')}`;

/** Element kinds whose selections become `<element>=<value>` properties (SPEC 2.9). */
const propertyKinds = new Set(['multiple_choice', 'taxonomy']);
/** Element kinds whose text is embedded and searched. */
const textKinds = new Set(['text', 'rich_text']);

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of rich text HTML: tags become spaces, common entities are decoded. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => entities[name] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The index entry of a published item as Delivery shows it, before its embedding. */
export function entryOf(item: DeliveryItem): Omit<RecsEntry, 'itemId' | 'embedding'> {
  const properties: string[] = [];
  const texts: string[] = [item.system.name];
  for (const [codename, element] of Object.entries(item.elements)) {
    if (propertyKinds.has(element.type) && Array.isArray(element.value)) {
      for (const v of element.value as { codename?: unknown }[])
        if (typeof v.codename === 'string') properties.push(`${codename}=${v.codename}`);
    } else if (textKinds.has(element.type) && typeof element.value === 'string') {
      texts.push(element.type === 'rich_text' ? plainText(element.value) : element.value);
    }
  }
  const entry = {
    properties: [...new Set(properties)],
    text: texts.filter((t) => t !== '').join('\n'),
  };
  return {
    language: item.system.language,
    codename: item.system.codename,
    name: item.system.name,
    type: item.system.type,
    lastUpdated: Date.parse(item.system.last_modified),
    ...entry,
    terms: [...new Set(words(embeddedText(entry)))],
  };
}

/**
 * Renders the recommendation entries of the items from the store's current state: every
 * published variant (the Delivery production rendering), one entry per language, before
 * embedding. An item with no published variant gets none.
 */
export async function renderRecsEntries(options: {
  tx: UnitOfWork;
  projectId: string;
  itemIds: readonly string[];
}): Promise<{ itemId: string; entries: RenderedEntry[] }[]> {
  const { tx, projectId } = options;
  const model = await ModelView.load(tx, projectId);
  const ctx = new RenderContext({ tx, projectId, model, assetsBase: '' });
  return Promise.all(
    options.itemIds.map(async (itemId) => {
      const item = await ctx.item(itemId);
      const variants = item ? await ctx.variantsOf(itemId) : [];
      const docs = item
        ? await Promise.all(variants.map((variant) => renderVariant({ ctx, item, variant, channel: 'production' })))
        : [];
      return { itemId, entries: docs.flatMap((d) => (d ? [{ ...entryOf(d.item), itemId }] : [])) };
    }),
  );
}
