import type { ModelRecord } from '../../domain/model-record.ts';
import { at, describeReference, isRecord, readReference, type Problems, type Reference } from '../shared/index.ts';
import { isAbsent, readBytes, readChoice, readLimit, readTextLength, readValidationRegex } from './fields.ts';
import type { KindContext, KindResult } from './kind-result.ts';
import type { ElementType } from './model.ts';
import { readOptions } from './options.ts';
import { readReferenceList, readRichText, readTypeList } from './rich-text.ts';

type Raw = Record<string, unknown>;

/** `default: {global: {value}}` of kinds that have one; undefined when not sent. */
async function readDefault<T>(
  raw: Raw,
  path: string,
  problems: Problems,
  readValue: (value: unknown, path: string) => T | null | Promise<T | null>,
): Promise<{ default?: { global: { value: T } } }> {
  const d = raw['default'];
  if (isAbsent(d)) return {};
  const global = isRecord(d) ? d['global'] : undefined;
  if (!isRecord(global) || !('value' in global)) {
    problems.add(at(path, 'default'), 'must be {"global": {"value": …}} or null');
    return {};
  }
  const value = await readValue(global['value'], at(path, 'default.global.value'));
  return value === null ? {} : { default: { global: { value } } };
}

async function readIdList(
  value: unknown,
  path: string,
  problems: Problems,
  resolve: (ref: Reference, path: string) => string | null | Promise<string | null>,
): Promise<{ id: string }[] | null> {
  if (!Array.isArray(value)) {
    problems.add(path, 'must be an array of references');
    return null;
  }
  const out: { id: string }[] = [];
  for (const { ref, path: p } of readReferenceList(value, path, problems)) {
    const id = await resolve(ref, p);
    if (id !== null && !out.some((x) => x.id === id)) out.push({ id });
  }
  return out;
}

function termIds(terms: unknown, ref: Reference): string | null {
  if (!Array.isArray(terms)) return null;
  for (const t of terms) {
    if (!isRecord(t)) continue;
    const isMatch =
      ('id' in ref && t['id'] === ref.id) ||
      ('codename' in ref && t['codename'] === ref.codename) ||
      ('external_id' in ref && t['external_id'] === ref.external_id);
    if (isMatch && typeof t['id'] === 'string') return t['id'];
    const nested = termIds(t['terms'], ref);
    if (nested !== null) return nested;
  }
  return null;
}

async function readTaxonomy(raw: Raw, path: string, c: KindContext, problems: Problems): Promise<KindResult> {
  const ref = readReference(raw['taxonomy_group'], at(path, 'taxonomy_group'), problems);
  let group: ModelRecord | null = null;
  if (ref && !('id' in ref && c.trusted.has(ref.id))) {
    group = await c.lookups.find('taxonomy', ref);
    if (!group)
      problems.add(at(path, 'taxonomy_group'), `The taxonomy group with ${describeReference(ref)} was not found.`);
  }
  const groupId = group?.id ?? (ref && 'id' in ref ? ref.id : null);
  const body = (group?.body ?? {}) as { name?: unknown; terms?: unknown };
  const dflt = await readDefault(raw, path, problems, (v, p) =>
    readIdList(v, p, problems, (r, rp) => {
      if ('id' in r && c.trusted.has(r.id)) return r.id;
      const id = group ? termIds(body.terms, r) : null;
      if (id === null) problems.add(rp, `The taxonomy term with ${describeReference(r)} was not found.`);
      return id;
    }),
  );
  return {
    props: {
      taxonomy_group: groupId === null ? null : { id: groupId },
      term_count_limit: readLimit(raw['term_count_limit'], at(path, 'term_count_limit'), problems),
      ...dflt,
    },
    ...(typeof body.name === 'string' ? { defaultName: body.name } : {}),
  };
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

function readCustom(raw: Raw, path: string, problems: Problems): KindResult {
  const url = raw['source_url'];
  if (!isHttpUrl(url)) problems.add(at(path, 'source_url'), 'must be an absolute http or https URL');
  const params = raw['json_parameters'];
  if (!isAbsent(params)) {
    try {
      if (typeof params !== 'string') throw new Error('not a string');
      JSON.parse(params);
    } catch {
      problems.add(at(path, 'json_parameters'), 'must be a string holding valid JSON');
    }
  }
  return {
    props: { source_url: url, json_parameters: isAbsent(params) ? null : params, allowed_elements: [] },
    allowedElements: readReferenceList(raw['allowed_elements'], at(path, 'allowed_elements'), problems).map(
      (r) => r.ref,
    ),
  };
}

/** How a problem names the element being read: its codename, else its name, when sent. */
function elementLabel(raw: Raw): string | null {
  for (const key of ['codename', 'name']) {
    const value = raw[key];
    if (typeof value === 'string' && value !== '') return value.length > 80 ? `${value.slice(0, 80)}…` : value;
  }
  return null;
}

function readDependsOn(raw: Raw, path: string, problems: Problems): KindResult {
  const d = raw['depends_on'];
  const p = at(path, 'depends_on');
  const regex = readValidationRegex(raw['validation_regex'], at(path, 'validation_regex'), problems, elementLabel(raw));
  if (!isRecord(d)) {
    problems.add(p, 'must be an object {element, snippet?} naming the text element the slug is made from');
    return { props: {} };
  }
  const element = readReference(d['element'], at(p, 'element'), problems);
  const snippet = isAbsent(d['snippet']) ? null : readReference(d['snippet'], at(p, 'snippet'), problems);
  return {
    props: { depends_on: null, validation_regex: regex },
    ...(element ? { dependsOn: { element, snippet } } : {}),
  };
}

const isoDate = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Reads the properties specific to one element kind (reference §4). */
export async function readKindProperties(
  type: ElementType,
  raw: Raw,
  path: string,
  c: KindContext,
  problems: Problems,
): Promise<KindResult> {
  const limit = (key: string) => readLimit(raw[key], at(path, key), problems);
  switch (type) {
    case 'text':
      return {
        props: {
          maximum_text_length: readTextLength(raw['maximum_text_length'], at(path, 'maximum_text_length'), problems),
          validation_regex: readValidationRegex(
            raw['validation_regex'],
            at(path, 'validation_regex'),
            problems,
            elementLabel(raw),
          ),
          ...(await readDefault(raw, path, problems, (v, p) => {
            if (typeof v === 'string') return v;
            problems.add(p, 'must be a string');
            return null;
          })),
        },
      };
    case 'number':
      return {
        props: await readDefault(raw, path, problems, (v, p) => {
          if (typeof v === 'number' && Number.isFinite(v)) return v;
          problems.add(p, 'must be a number');
          return null;
        }),
      };
    case 'date_time':
      return {
        props: await readDefault(raw, path, problems, (v, p) => {
          if (typeof v === 'string' && isoDate.test(v) && !Number.isNaN(Date.parse(v)))
            return new Date(v).toISOString();
          problems.add(p, 'must be an ISO-8601 date and time');
          return null;
        }),
      };
    case 'multiple_choice': {
      const mode = readChoice(raw['mode'], ['single', 'multiple'], at(path, 'mode'), problems, 'single');
      if (isAbsent(raw['mode'])) problems.add(at(path, 'mode'), 'is required: "single" or "multiple"');
      const options = readOptions(raw['options'], at(path, 'options'), problems);
      const dflt = await readDefault(raw, path, problems, async (v, p) => {
        const ids = await readIdList(v, p, problems, (r, rp) => {
          const o = options.find(
            (x) =>
              ('id' in r && x.id === r.id) ||
              ('codename' in r && x.codename === r.codename) ||
              ('external_id' in r && x.external_id === r.external_id),
          );
          if (!o) problems.add(rp, `The option with ${describeReference(r)} was not found in this element.`);
          return o?.id ?? null;
        });
        if (ids && mode === 'single' && ids.length > 1) problems.add(p, 'A single-choice element has one default.');
        return ids;
      });
      return { props: { mode, options, ...dflt } };
    }
    case 'asset':
      return {
        props: {
          asset_count_limit: limit('asset_count_limit'),
          maximum_file_size: readBytes(raw['maximum_file_size'], at(path, 'maximum_file_size'), problems),
          allowed_file_types: readChoice(
            raw['allowed_file_types'],
            ['adjustable', 'any'],
            at(path, 'allowed_file_types'),
            problems,
            'any',
          ),
          image_width_limit: limit('image_width_limit'),
          image_height_limit: limit('image_height_limit'),
          ...(await readDefault(raw, path, problems, (v, p) =>
            readIdList(v, p, problems, (r, rp) => c.lookups.objectId('asset', r, rp, problems)),
          )),
        },
      };
    case 'modular_content':
    case 'subpages':
      return {
        props: {
          item_count_limit: limit('item_count_limit'),
          allowed_content_types: await readTypeList(
            raw['allowed_content_types'],
            at(path, 'allowed_content_types'),
            c,
            problems,
          ),
          ...(await readDefault(raw, path, problems, (v, p) =>
            readIdList(v, p, problems, (r, rp) => c.lookups.objectId('content_item', r, rp, problems)),
          )),
        },
      };
    case 'rich_text':
      return readRichText(raw, path, c, problems);
    case 'taxonomy':
      return readTaxonomy(raw, path, c, problems);
    case 'url_slug':
      return readDependsOn(raw, path, problems);
    case 'custom':
      return readCustom(raw, path, problems);
    case 'guidelines':
      return { props: {} };
    case 'snippet': {
      const ref = readReference(raw['snippet'], at(path, 'snippet'), problems);
      const snippet = ref ? await c.lookups.requireSnippet(ref, at(path, 'snippet'), problems) : null;
      if (!snippet) return { props: {} };
      return { props: { snippet: { id: snippet.id } }, fixedCodename: snippet.codename, usedSnippet: snippet };
    }
  }
}
