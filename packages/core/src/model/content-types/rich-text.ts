import { at, readReference, type Problems, type Reference } from '../shared/index.ts';
import { isAbsent, readAllowedList, readBytes, readChoice, readLimit, readTextLength } from './fields.ts';
import type { KindContext, KindResult } from './kind-result.ts';

type Raw = Record<string, unknown>;

const blocks = ['images', 'text', 'tables', 'components-and-items'];
const textBlocks = [
  'paragraph',
  'heading-one',
  'heading-two',
  'heading-three',
  'heading-four',
  'heading-five',
  'heading-six',
  'ordered-list',
  'unordered-list',
];
const formatting = ['unstyled', 'bold', 'italic', 'code', 'link', 'subscript', 'superscript'];
const tableBlocks = ['images', 'text'];

export function readReferenceList(
  value: unknown,
  path: string,
  problems: Problems,
): { ref: Reference; path: string }[] {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) {
    problems.add(path, 'must be an array of references');
    return [];
  }
  return value.flatMap((v, i) => {
    const ref = readReference(v, at(path, i), problems);
    return ref ? [{ ref, path: at(path, i) }] : [];
  });
}

export async function readTypeList(value: unknown, path: string, c: KindContext, problems: Problems) {
  const ids: { id: string }[] = [];
  for (const { ref, path: p } of readReferenceList(value, path, problems)) {
    const id = await c.lookups.contentTypeId(ref, p, problems);
    if (id !== null && !ids.some((x) => x.id === id)) ids.push({ id });
  }
  return ids;
}

export async function readRichText(raw: Raw, path: string, c: KindContext, problems: Problems): Promise<KindResult> {
  const list = (key: string, choices: string[]) => readAllowedList(raw[key], choices, at(path, key), problems);
  const allowedFormatting = list('allowed_formatting', formatting);
  const tableFormatting = list('allowed_table_formatting', formatting);
  if (raw['is_non_localizable'] === true)
    problems.add(at(path, 'is_non_localizable'), 'Rich text elements cannot be non-localizable.');
  return {
    props: {
      maximum_text_length: readTextLength(raw['maximum_text_length'], at(path, 'maximum_text_length'), problems),
      maximum_image_size: readBytes(raw['maximum_image_size'], at(path, 'maximum_image_size'), problems),
      allowed_content_types: await readTypeList(
        raw['allowed_content_types'],
        at(path, 'allowed_content_types'),
        c,
        problems,
      ),
      allowed_item_link_types: await readTypeList(
        raw['allowed_item_link_types'],
        at(path, 'allowed_item_link_types'),
        c,
        problems,
      ),
      image_width_limit: readLimit(raw['image_width_limit'], at(path, 'image_width_limit'), problems),
      image_height_limit: readLimit(raw['image_height_limit'], at(path, 'image_height_limit'), problems),
      allowed_image_types: readChoice(
        raw['allowed_image_types'],
        ['adjustable', 'any'],
        at(path, 'allowed_image_types'),
        problems,
        'any',
      ),
      allowed_blocks: list('allowed_blocks', blocks),
      allowed_text_blocks: list('allowed_text_blocks', textBlocks),
      allowed_formatting: allowedFormatting,
      allowed_table_blocks: list('allowed_table_blocks', tableBlocks),
      allowed_table_text_blocks: list('allowed_table_text_blocks', textBlocks),
      allowed_table_formatting: tableFormatting,
    },
  };
}
