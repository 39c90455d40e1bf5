import { createHash } from 'node:crypto';
import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { loadExistingVariant, type VariantInput } from './load.ts';
import type { VariantRecord } from './variant-record.ts';
import { variantJson } from './variant-json.ts';
import type { AnyVariantJson } from './variant-wire.ts';

/*
 * Variant ETags (a Lectern extension of the Management API, docs/editor-api.md): a strong entity
 * tag derived from everything stored of the variant (elements, workflow, schedule, due date,
 * contributors, note, the published version and the last change time), so every write that
 * changes it changes the tag, and the tag is the same in v1 and v2 and on every replica.
 */

/** JSON with object keys sorted, so a record read back from jsonb (keys reordered) hashes the same. */
function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The variant's strong ETag, quoted as in the `ETag` header: `"<22 base64url characters>"`. */
export function variantEtag(variant: VariantRecord): string {
  const { projectId: _p, itemId: _i, languageId: _l, ...stored } = variant;
  return `"${createHash('sha256').update(canonical(stored)).digest('base64url').slice(0, 22)}"`;
}

/**
 * Refuses a write whose `If-Match` (RFC 9110 §13.1.1, strong comparison) names no current version
 * of the variant: 412 VARIANT_CHANGED. `*` matches any existing variant; a weak tag never matches.
 * Without the header (undefined) nothing is checked: today's semantics.
 */
export function assertIfMatch(variant: VariantRecord | null, ifMatch: string | undefined): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (variant !== null && tags.includes('*')) return;
  if (variant !== null && tags.includes(variantEtag(variant))) return;
  throw new LecternError('VARIANT_CHANGED');
}

/** The latest version of one variant with its ETag, read in one transaction. */
export async function getVariantWithEtag(
  deps: CoreDeps,
  input: VariantInput,
): Promise<{ variant: AnyVariantJson; etag: string }> {
  return deps.store.transaction(async (tx) => {
    const { lookups, variant } = await loadExistingVariant(tx, input, { isForUpdate: false });
    return {
      variant: await variantJson(variant, { lookups, version: input.version ?? 'v2' }),
      etag: variantEtag(variant),
    };
  });
}
