/* Helpers for the rich text tests (not part of the app): an arbitrary over Kontent.ai rich text
   values, written in the many input forms the Management API accepts, and Lectern's real
   normaliser with references resolved as the variant code resolves them. */
import { normalizeRichText, Problems, type RichTextRefs } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import fc from 'fast-check';

/** A deterministic uuid for an external id or codename (the server derives one too). */
function derivedId(key: string, kind: 'item' | 'asset'): string {
  let hash = 0;
  for (const c of key) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return `${kind === 'item' ? '11111111' : '22222222'}-0000-4000-8000-${hash.toString(16).padStart(12, '0')}`;
}

/** Refs as the variant code has them: ids lower-cased, external ids and codenames resolved. */
export const serverRefs: RichTextRefs = {
  resolveItem: (ref) => ('id' in ref ? ref.id.toLowerCase() : derivedId(ref.external_id, 'item')),
  resolveAsset: (ref) => ('id' in ref ? ref.id.toLowerCase() : derivedId(ref.external_id, 'asset')),
  resolveItemCodename: (codename) => derivedId(`codename:${codename}`, 'item'),
  resolveAssetCodename: (codename) => derivedId(`codename:${codename}`, 'asset'),
};

/** The value the Management API stores and returns for `html`; throws with its problems if refused. */
export function normalise(html: string): string {
  const problems = new Problems();
  const result = normalizeRichText({ html, path: 'value', problems, refs: serverRefs });
  if (result === null) {
    let messages = 'refused';
    try {
      problems.throwIfAny();
    } catch (error) {
      if (error instanceof LecternError) messages = error.problems.map((p) => p.message).join(' | ');
    }
    throw new Error(`The normaliser refused ${JSON.stringify(html)}: ${messages}`);
  }
  return result.html;
}

// ---- text and attribute values, escaped for input in either of the forms HTML allows ----

const char = fc.constantFrom(
  'a',
  'b',
  'Z',
  '1',
  ' ',
  ' ',
  '\n',
  '&',
  '<',
  '>',
  '"',
  "'",
  '\u00a0',
  'é',
  '😀',
  '\t',
  '=',
);

function escapeInput(value: string, isAttribute: boolean, useNamedNbsp: boolean): string {
  let out = value.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  if (isAttribute) out = out.replaceAll('"', '&quot;');
  if (useNamedNbsp) out = out.replaceAll('\u00a0', '&nbsp;');
  return out;
}

const textValue = fc.string({ unit: char, minLength: 1, maxLength: 8 });
const text = fc.tuple(textValue, fc.boolean()).map(([value, nbsp]) => escapeInput(value, false, nbsp));
const attrValue = fc
  .string({ unit: char, minLength: 1, maxLength: 8 })
  .filter((v) => v.trim() !== '')
  .map((v) => escapeInput(v, true, false));
const uuid = fc.uuid({ version: 4 }).chain((id) => fc.constantFrom(id, id.toUpperCase()));
const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);

/** A reference in one of the three forms (`data-item-id`, `-external-id`, `-codename`). */
function reference(prefix: string): fc.Arbitrary<string> {
  return fc.oneof(
    uuid.map((id) => `${prefix}id="${id}"`),
    key.map((k) => `${prefix}external-id="${k}"`),
    key.map((k) => `${prefix}codename="${k}"`),
  );
}

const link = fc.oneof(
  fc
    .record({
      url: fc.constantFrom('https://example.com/a?b=1&amp;c=2', 'example.org', '//cdn.example', 'mailto:x@y.z', '/rel'),
      isNewWindow: fc.boolean(),
      title: fc.option(attrValue),
    })
    .map(
      ({ url, isNewWindow, title }) =>
        `href="${url}"${isNewWindow ? ' data-new-window="true"' : ''}${title === null ? '' : ` title="${title}"`}`,
    ),
  reference('data-item-'),
  fc
    .tuple(reference('data-asset-'), fc.boolean())
    .map(([ref, isNew]) => `${ref}${isNew ? ' data-new-window="true"' : ''}`),
  fc
    .tuple(fc.constantFrom('a@example.com', 'x.y@z.org'), fc.option(attrValue))
    .map(
      ([email, subject]) =>
        `data-email-address="${email}"${subject === null ? '' : ` data-email-subject="${subject}"`}`,
    ),
  fc.constantFrom('+420 123 456', '555-0100').map((phone) => `data-phone-number="${phone}"`),
);

// Nesting order of the editor (outermost first); 0 is the link.
const markTags = ['a', 'em', 'strong', 'code', 'sub', 'sup'];

interface InlineOptions {
  /** Canonical: marks nest in editor order, no empty elements, no same-tag neighbours. */
  readonly isCanonical: boolean;
}

/** Inline content: a list of HTML pieces (text, `<br/>`, formatting and links). */
function inline(depth: number, minRank: number, options: InlineOptions): fc.Arbitrary<string> {
  const leaf = fc.oneof({ arbitrary: text, weight: 4 }, { arbitrary: fc.constant('<br/>'), weight: 1 });
  // Canonical: only marks nested inside `minRank`. Otherwise any order, but never a link in a link.
  const ranks = markTags
    .map((_, rank) => rank)
    .filter((rank) => (options.isCanonical ? rank > minRank : rank !== 0 || minRank < 0));
  const element =
    depth <= 0 || ranks.length === 0
      ? leaf.map((html) => ({ html, tag: '' }))
      : fc.constantFrom(...ranks).chain((rank) =>
          fc
            .tuple(
              rank === 0 ? link : fc.constant(''),
              inline(depth - 1, options.isCanonical || rank === 0 ? Math.max(rank, minRank) : minRank, options),
            )
            .filter(([, children]) => !options.isCanonical || children !== '')
            .map(([attrs, children]) => {
              const tag = markTags[rank] ?? 'em';
              return { html: `<${tag}${attrs === '' ? '' : ` ${attrs}`}>${children}</${tag}>`, tag };
            }),
        );
  const piece = fc.oneof(
    { arbitrary: leaf.map((html) => ({ html, tag: '' })), weight: 2 },
    { arbitrary: element, weight: 1 },
  );
  return fc.array(piece, { maxLength: 4 }).map((pieces) => {
    const kept: typeof pieces = [];
    for (const p of pieces) {
      const previous = kept[kept.length - 1];
      // Same-tag neighbours merge in the editor (and links side by side are not worth the noise).
      const isMerging = p.tag !== '' && previous?.tag === p.tag && (options.isCanonical || p.tag === 'a');
      if (!isMerging) kept.push(p);
    }
    return kept.map((p) => p.html).join('');
  });
}

const gap = fc.constantFrom('', '', '', '\n', '\n  ', ' ');

function withGaps(items: readonly string[], gaps: readonly string[]): string {
  return items.map((item, i) => (gaps[i] ?? '') + item).join('') + (gaps[items.length] ?? '');
}

function gapped(item: fc.Arbitrary<string>, min: number, max: number): fc.Arbitrary<string> {
  return fc
    .array(item, { minLength: min, maxLength: max })
    .chain((items) =>
      fc.array(gap, { minLength: items.length + 1, maxLength: items.length + 1 }).map((gaps) => withGaps(items, gaps)),
    );
}

function textBlock(options: InlineOptions): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('p', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'), inline(3, -1, options))
    .map(([tag, content]) => `<${tag}>${content}</${tag}>`);
}

function list(depth: number, options: InlineOptions): fc.Arbitrary<string> {
  const nested = depth <= 0 ? fc.constant<string[]>([]) : fc.array(list(depth - 1, options), { maxLength: 2 });
  const item = fc
    .tuple(inline(2, -1, options), nested, fc.array(inline(2, -1, options), { minLength: 2, maxLength: 2 }))
    .map(([first, lists, after]) => `<li>${first}${lists.map((l, i) => l + (after[i] ?? '')).join('')}</li>`);
  return fc.tuple(fc.constantFrom('ul', 'ol'), gapped(item, 0, 3)).map(([tag, items]) => `<${tag}>${items}</${tag}>`);
}

const figure = fc.tuple(reference('data-asset-'), fc.boolean()).map(([ref, hasImage]) => {
  const image = hasImage && ref.startsWith('data-asset-id') ? `<img src="#" ${ref}>` : '';
  return `<figure ${ref}>${image}</figure>`;
});

function cell(options: InlineOptions): fc.Arbitrary<string> {
  const blocks = gapped(fc.oneof(textBlock(options), list(1, options), figure), 1, 3);
  return fc.oneof(inline(2, -1, options), blocks).map((content) => `<td>${content}</td>`);
}

function table(options: InlineOptions): fc.Arbitrary<string> {
  const row = gapped(cell(options), 0, 3).map((cells) => `<tr>${cells}</tr>`);
  const body = gapped(row, 0, 3).map((rows) => `<tbody>${rows}</tbody>`);
  return gapped(body, 0, 2).map((bodies) => `<table>${bodies}</table>`);
}

const linkedItem = fc
  .oneof(
    uuid.map((id) => `data-id="${id}"`),
    key.map((k) => `data-external-id="${k}"`),
    key.map((k) => `data-codename="${k}"`),
  )
  .map((ref) => `<object type="application/kenticocloud" data-type="item" ${ref}></object>`);

const componentMarker = '\u0000component\u0000';

/**
 * A whole rich text value as a client may send it: blocks of every kind with whitespace
 * between them, references in every accepted form, components with distinct ids.
 */
export function richTextValue(options: InlineOptions): fc.Arbitrary<string> {
  const block = fc.oneof(
    { arbitrary: textBlock(options), weight: 4 },
    { arbitrary: list(2, options), weight: 2 },
    { arbitrary: table(options), weight: 1 },
    { arbitrary: figure, weight: 1 },
    { arbitrary: linkedItem, weight: 1 },
    { arbitrary: fc.constant(componentMarker), weight: 1 },
  );
  return fc.tuple(gapped(block, 1, 5), fc.array(uuid, { minLength: 5, maxLength: 5 })).map(([html, ids]) => {
    let n = 0;
    return html.replaceAll(componentMarker, () => {
      n += 1;
      const id = ids[n - 1] ?? '';
      // Distinct ids: a value places each component once.
      const unique = `${id.slice(0, 34)}${String(n).padStart(2, '0')}`;
      return `<object type="application/kenticocloud" data-type="component" data-id="${unique}"></object>`;
    });
  });
}
