import type { ElementBody } from '../../model/content-types/model.ts';
import { emptyRichText } from '../rich-text/index.ts';
import type { Problems } from '../../model/shared/index.ts';
import type { StoredElements } from '../variants/variant-record.ts';
import { checkCountLimit } from '../variants/value-rules.ts';

function isEmpty(def: ElementBody, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'string') {
    if (def.type === 'rich_text') return value === '' || value.replace(/\s/g, '') === emptyRichText.replace(/\s/g, '');
    return value.trim() === '';
  }
  return false;
}

const limits: Record<string, [string, string]> = {
  asset: ['asset_count_limit', 'assets'],
  modular_content: ['item_count_limit', 'items'],
  subpages: ['item_count_limit', 'items'],
  taxonomy: ['term_count_limit', 'terms'],
};

/**
 * Publish-time checks of the latest version: required elements have values, and count limits hold
 * in full (`at_least` and `exactly` too). Problems are reported by element codename.
 */
export function checkPublishable(defs: readonly ElementBody[], elements: StoredElements, problems: Problems): void {
  for (const def of defs) {
    const value = elements[def.id]?.value;
    const path = `elements.${def.codename}`;
    if (def['is_required'] === true && isEmpty(def, value)) {
      problems.add(path, `The element '${def.codename}' is required. Give it a value before publishing.`);
      continue;
    }
    const limit = limits[def.type];
    if (limit && Array.isArray(value))
      checkCountLimit(
        value.length,
        def[limit[0]] as { value: number; condition: string } | null,
        limit[1],
        path,
        problems,
        true,
      );
  }
}
