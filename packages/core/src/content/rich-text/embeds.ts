import { isUuid } from '../../domain/uuid.ts';
import {
  attributeOf,
  checkAttributes,
  isElement,
  isWhitespace,
  pushUnique,
  type ConvertContext,
  type Parse5Element,
} from './context.ts';
import type { RichTextElement } from './serialize.ts';

/** The media type of component and item objects (reference §3.2). */
export const objectMediaType = 'application/kenticocloud';

type Kind = 'item' | 'asset';

/**
 * Resolves one reference given by exactly one of the attributes `<prefix>id`,
 * `<prefix>external-id`, `<prefix>codename`. Returns the id, or null after a problem.
 */
export function resolveReference(options: {
  readonly element: Parse5Element;
  readonly prefix: string;
  readonly kind: Kind;
  readonly context: ConvertContext;
}): string | null {
  const { element, prefix, kind, context } = options;
  const names = [`${prefix}id`, `${prefix}external-id`, `${prefix}codename`] as const;
  const given = names.filter((name) => attributeOf(element, name) !== undefined);
  if (given.length !== 1) {
    const what = given.length === 0 ? 'needs' : 'takes only one of';
    context.report(element, `<${element.tagName}>{at} ${what} ${names.join(', ')}.`);
    return null;
  }
  const name = given[0] ?? names[0];
  const value = attributeOf(element, name) ?? '';
  if (value.trim() === '') {
    context.report(element, `Attribute ${name} on <${element.tagName}>{at} is empty.`);
    return null;
  }
  let id: string | null;
  if (name === names[0]) {
    if (!isUuid(value)) {
      context.report(element, `Attribute ${name} on <${element.tagName}>{at} is not a uuid: "${value}".`);
      return null;
    }
    id = resolveBy(context, kind, { id: value });
  } else if (name === names[1]) {
    id = resolveBy(context, kind, { external_id: value });
  } else {
    const byCodename = kind === 'item' ? context.refs.resolveItemCodename : context.refs.resolveAssetCodename;
    if (byCodename === undefined) {
      context.report(
        element,
        `Attribute ${name} on <${element.tagName}>{at}: references by codename are not supported in rich text; use ${names[0]} or ${names[1]}.`,
      );
      return null;
    }
    id = byCodename.call(context.refs, value, context.path);
  }
  if (id === null) context.markFailed();
  return id;
}

function resolveBy(context: ConvertContext, kind: Kind, ref: { id: string } | { external_id: string }): string | null {
  return kind === 'item' ? context.refs.resolveItem(ref, context.path) : context.refs.resolveAsset(ref, context.path);
}

const assetAttributes = ['data-asset-id', 'data-asset-external-id', 'data-asset-codename'];

/**
 * The `<img>` inside a `<figure>`: `src` and at most one asset reference in any of the three forms
 * (data-ops rewrites every `data-asset-id` of an export to `data-asset-external-id`, the inner
 * `<img>`'s too); the asset it names must be the figure's.
 */
function checkImage(image: Parse5Element, figureAsset: string | null, context: ConvertContext): void {
  checkAttributes(image, ['src', ...assetAttributes], context);
  if (!assetAttributes.some((name) => attributeOf(image, name) !== undefined)) return;
  const imageAsset = resolveReference({ element: image, prefix: 'data-asset-', kind: 'asset', context });
  if (imageAsset !== null && figureAsset !== null && imageAsset.toLowerCase() !== figureAsset.toLowerCase())
    context.report(image, `<img>{at} names asset ${imageAsset}, but its <figure> places asset ${figureAsset}.`);
}

/**
 * `<figure data-asset-…>` → `<figure data-asset-id><img src="#" data-asset-id></figure>`. The
 * `<img>` of the response form is accepted back (it must name the same asset) and rebuilt.
 */
export function convertFigure(figure: Parse5Element, context: ConvertContext): RichTextElement | null {
  checkAttributes(figure, assetAttributes, context);
  const id = resolveReference({ element: figure, prefix: 'data-asset-', kind: 'asset', context });
  let imageCount = 0;
  for (const child of figure.childNodes) {
    if (child.nodeName === '#text' && isWhitespace((child as { value: string }).value)) continue;
    if (isElement(child) && child.tagName === 'img' && imageCount === 0) {
      imageCount += 1;
      checkImage(child, id, context);
      continue;
    }
    context.report(
      figure,
      `<figure>{at} holds only its asset reference, optionally with <img src="#" data-asset-id="…">; remove its other content.`,
    );
    break;
  }
  if (id === null) return null;
  pushUnique(context.assetIds, id);
  return {
    kind: 'element',
    name: 'figure',
    attrs: [['data-asset-id', id]],
    children: [
      {
        kind: 'element',
        name: 'img',
        attrs: [
          ['src', '#'],
          ['data-asset-id', id],
        ],
        children: [],
      },
    ],
  };
}

/** Components (`data-type="component"`, client uuid) and linked items (`data-type="item"`). */
export function convertObject(object: Parse5Element, context: ConvertContext): RichTextElement | null {
  checkAttributes(object, ['type', 'data-type', 'data-id', 'data-external-id', 'data-codename'], context);
  for (const child of object.childNodes) {
    if (child.nodeName === '#text' && isWhitespace((child as { value: string }).value)) continue;
    context.report(object, `<object>{at} must be empty; write <object …></object>.`);
    break;
  }
  const type = attributeOf(object, 'type');
  if (type !== objectMediaType) {
    context.report(
      object,
      `<object>{at} needs type="${objectMediaType}"${type === undefined ? '' : `, not "${type}"`}.`,
    );
    return null;
  }
  const dataType = attributeOf(object, 'data-type');
  if (dataType === 'component') return convertComponent(object, context);
  if (dataType === 'item') {
    const id = resolveReference({ element: object, prefix: 'data-', kind: 'item', context });
    if (id === null) return null;
    pushUnique(context.itemIds, id);
    return objectElement('item', id);
  }
  context.report(
    object,
    `<object>{at} needs data-type="component" or data-type="item"${dataType === undefined ? '' : `, not "${dataType}"`}.`,
  );
  return null;
}

function convertComponent(object: Parse5Element, context: ConvertContext): RichTextElement | null {
  for (const name of ['data-external-id', 'data-codename']) {
    if (attributeOf(object, name) !== undefined) {
      context.report(object, `Component <object>{at} is identified by data-id only; remove ${name}.`);
      return null;
    }
  }
  const id = attributeOf(object, 'data-id');
  if (id === undefined || !isUuid(id)) {
    const found = id === undefined ? 'none' : `"${id}"`;
    context.report(object, `Component <object>{at} needs data-id with the component's uuid (found ${found}).`);
    return null;
  }
  const canonical = id.toLowerCase();
  if (context.componentIds.includes(canonical)) {
    context.report(object, `Component ${canonical}{at} is placed more than once; each component appears once.`);
    return null;
  }
  context.componentIds.push(canonical);
  return objectElement('component', canonical);
}

function objectElement(dataType: 'component' | 'item', id: string): RichTextElement {
  return {
    kind: 'element',
    name: 'object',
    attrs: [
      ['type', objectMediaType],
      ['data-type', dataType],
      ['data-id', id],
    ],
    children: [],
  };
}
