// Schema build time of a content model of N types (the GraphQL benchmark's second table): the
// Delivery JSON of N types, each with every element kind and a snippet, built into a schema.
import { buildProjectSchema, SchemaCache } from '../../services/graphql/src/index.ts';

const kinds = [
  'text',
  'rich_text',
  'number',
  'multiple_choice',
  'date_time',
  'asset',
  'modular_content',
  'taxonomy',
  'url_slug',
  'custom',
];

/** N content types, each with two elements of every kind and the elements of one of five snippets. */
export function modelOfTypes(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const elements: Record<string, { type: string; name: string }> = {};
    kinds.forEach((kind, k) => {
      elements[`${kind}_a_${k}`] = { type: kind, name: `${kind} A` };
      elements[`${kind}_b_${k}`] = { type: kind, name: `${kind} B` };
    });
    elements[`snippet_${i % 5}__meta_title`] = { type: 'text', name: 'Meta title' };
    elements[`snippet_${i % 5}__meta_image`] = { type: 'asset', name: 'Meta image' };
    const codename = `content_type_${String(i).padStart(3, '0')}`;
    return { system: { id: String(i), codename, name: codename, last_modified: '2026-01-01T00:00:00Z' }, elements };
  });
}

export interface SchemaBuildTiming {
  readonly types: number;
  readonly fields: number;
  readonly firstMs: number;
  readonly medianMs: number;
  readonly cachedMicros: number;
}

/** Times building the schema of `types` types: the first build, the median of `runs`, a cache hit. */
export function timeSchemaBuild(types: number, runs = 15): SchemaBuildTiming {
  const model = modelOfTypes(types);
  const time = () => {
    const began = performance.now();
    const built = buildProjectSchema(model, { defaultLimit: 10 });
    if (!built.isValid) throw new Error(built.problems.map((p) => p.message).join('\n'));
    return { ms: performance.now() - began, built };
  };
  const first = time();
  const samples = Array.from({ length: runs }, () => time().ms).sort((a, b) => a - b);
  const cache = new SchemaCache({ defaultLimit: 10 });
  cache.get('p', model);
  const copy = JSON.parse(JSON.stringify(model)) as Record<string, unknown>[];
  const began = performance.now();
  for (let i = 0; i < 100; i++) cache.get('p', i % 2 === 0 ? model : copy);
  const fields = first.built.isValid
    ? Object.values(first.built.schema.getTypeMap()).reduce(
        (n, t) => n + ('getFields' in t ? Object.keys((t as { getFields(): object }).getFields()).length : 0),
        0,
      )
    : 0;
  return {
    types,
    fields,
    firstMs: first.ms,
    medianMs: samples[Math.floor(samples.length / 2)] ?? 0,
    cachedMicros: ((performance.now() - began) / 100) * 1000,
  };
}
