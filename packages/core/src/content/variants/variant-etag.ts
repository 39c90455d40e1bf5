import { createHash, type Hash } from 'node:crypto';
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

/**
 * Feeds an unambiguous encoding of `value` to the hash: object keys sorted (a record read back
 * from jsonb has its keys reordered), strings length-prefixed and unescaped (no copy of a large
 * rich text value), undefined properties left out as JSON leaves them.
 */
function feed(hash: Hash, value: unknown): void {
  if (typeof value === 'string') {
    hash.update(`s${value.length}:`);
    hash.update(value);
  } else if (value instanceof Date) hash.update(`d${value.toISOString()};`);
  else if (Array.isArray(value)) {
    hash.update('[');
    for (const v of value) feed(hash, v ?? null);
    hash.update(']');
  } else if (value !== null && typeof value === 'object') {
    hash.update('{');
    for (const [k, v] of Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      feed(hash, k);
      feed(hash, v);
    }
    hash.update('}');
  } else hash.update(`${JSON.stringify(value)};`);
}

/** The variant's strong ETag, quoted as in the `ETag` header: `"<22 base64url characters>"`. */
export function variantEtag(variant: VariantRecord): string {
  const { projectId: _p, itemId: _i, languageId: _l, ...stored } = variant;
  const hash = createHash('sha256');
  feed(hash, stored);
  return `"${hash.digest('base64url').slice(0, 22)}"`;
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
