import type { ElementBody } from '../../model/content-types/model.ts';
import { at, describeReference, isRecord, readReference, type Reference } from '../../model/shared/index.ts';
import { readElementValue } from './element-values.ts';
import { readRichTextValue } from './rich-text-value.ts';
import type { StoredElementValue } from './variant-record.ts';
import type { ElementsReader } from './value-context.ts';

function findDef(defs: readonly ElementBody[], ref: Reference): ElementBody | undefined {
  return defs.find(
    (d) =>
      ('id' in ref && d.id === ref.id) ||
      ('codename' in ref && d.codename === ref.codename) ||
      ('external_id' in ref && d.external_id === ref.external_id),
  );
}

/**
 * Reads the `elements` of a variant or component request against the element definitions of its
 * type: v2 an array of `{element: reference, value, …}`, v1 an object of raw values keyed by
 * element codename (snippet elements `<snippet>__<element>`). Returns the values by element id,
 * or null when any is invalid (every problem recorded). Unknown elements are problems.
 */
export const readElements: ElementsReader = async (options) => {
  const { defs, raw, path, ctx } = options;
  const before = ctx.problems.count;
  const out = new Map<string, StoredElementValue>();
  const entries: { def: ElementBody; entry: Record<string, unknown>; valuePath: string }[] = [];
  if (ctx.version === 'v1') {
    if (!isRecord(raw)) {
      ctx.problems.add(path, 'must be an object of element values keyed by element codename');
      return null;
    }
    for (const [codename, value] of Object.entries(raw)) {
      const def = findDef(defs, { codename });
      if (!def)
        ctx.problems.add(
          at(path, codename),
          `The element with codename '${codename}' was not found in the content type.`,
        );
      else entries.push({ def, entry: { value }, valuePath: at(path, codename) });
    }
  } else {
    if (!Array.isArray(raw)) {
      ctx.problems.add(path, 'must be an array of {"element": reference, "value": …}');
      return null;
    }
    for (const [i, entry] of raw.entries()) {
      const p = at(path, i);
      if (!isRecord(entry)) {
        ctx.problems.add(p, 'must be an object {"element": reference, "value": …}');
        continue;
      }
      const ref = readReference(entry['element'], at(p, 'element'), ctx.problems);
      if (!ref) continue;
      const def = findDef(defs, ref);
      if (!def)
        ctx.problems.add(
          at(p, 'element'),
          `The element with ${describeReference(ref)} was not found in the content type.`,
        );
      else entries.push({ def, entry, valuePath: at(p, 'value') });
    }
  }
  const seen = new Set<string>();
  for (const { def, entry, valuePath } of entries) {
    if (seen.has(def.id)) {
      ctx.problems.add(valuePath, `The element '${def.codename}' is given more than once.`);
      continue;
    }
    seen.add(def.id);
    const value =
      def.type === 'rich_text'
        ? await readRichTextValue(def, entry, valuePath, { ctx, readElements })
        : await readElementValue(def, entry, valuePath, ctx);
    if (value) out.set(def.id, value);
  }
  return ctx.problems.count === before ? out : null;
};
