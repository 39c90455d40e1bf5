import { LecternError } from '@lectern/errors';
import type { UnitOfWork } from '../../ports/store.ts';
import type { StoredElementValue, StoredElements } from '../variants/variant-record.ts';
import type { StoredVersion, VariantRef } from './version-record.ts';

/** Applies a chain (a snapshot, then the deltas after it, oldest first) to the full element values. */
export function applyChain(chain: readonly StoredVersion[]): StoredElements {
  let out: Record<string, StoredElementValue> = {};
  for (const version of chain) {
    if (version.isSnapshot) out = {};
    for (const [id, value] of Object.entries(version.elements)) {
      if (value === null) delete out[id];
      else out[id] = value;
    }
  }
  return out;
}

/** The full element values of a stored version, read from its snapshot and the deltas since. */
export async function elementsOf(tx: UnitOfWork, ref: VariantRef, version: StoredVersion): Promise<StoredElements> {
  if (version.isSnapshot) return applyChain([version]);
  const chain = await tx.history.range(ref, version.baseSeq, version.seq);
  if (chain[0]?.isSnapshot !== true || chain.length !== version.seq - version.baseSeq + 1)
    throw new LecternError('INTERNAL', { message: 'A version of the variant history lost its snapshot.' });
  return applyChain(chain);
}
