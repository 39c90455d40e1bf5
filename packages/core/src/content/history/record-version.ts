import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Actor } from '../../domain/actor.ts';
import { systemStepIds } from '../../model/defaults.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { StoredElementValue, VariantRecord } from '../variants/variant-record.ts';
import type { StoredVersion, VersionInterface, VersionMeta } from './version-record.ts';

/**
 * A snapshot is stored at least every this many versions, so rebuilding any version reads at most
 * this many rows; in between, a version stores only the element values that changed.
 */
export const snapshotEvery = 20;

/** The interface an actor stands for (see VersionInterface). */
export function interfaceOf(actor: Actor): VersionInterface {
  if (actor.type === 'person') return 'editor';
  if (actor.type === 'api_key') return 'management_api';
  return 'operator';
}

function userOf(actor: Actor): string | null {
  if (actor.type === 'person' || actor.type === 'api_key') return actor.userId;
  return null;
}

function metaOf(v: VariantRecord): VersionMeta {
  return {
    last_modified: v.lastModified.toISOString(),
    schedule: v.schedule,
    due_date: v.dueDate,
    contributors: v.contributors,
    note: v.note,
  };
}

type Elements = Readonly<Record<string, StoredElementValue>>;

/** Element ids whose values differ between the two sets (removed ones too). */
export function changedElementIds(before: Elements | null, after: Elements): string[] {
  const ids = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  return [...ids].filter((id) => !isDeepStrictEqual(before?.[id], after[id]));
}

interface Save {
  readonly actor: Actor;
  readonly via?: VersionInterface | undefined;
  /** The variant before the write (null when the write created it). */
  readonly before: VariantRecord | null;
  readonly after: VariantRecord;
  readonly operation: string;
  readonly at: Date;
  /**
   * `changedElementIds(before.elements, after.elements)` when the caller has computed it already
   * (an upsert also names them in its audit entry); computed here when absent.
   */
  readonly changed?: readonly string[] | undefined;
  /**
   * The variant's latest version when the caller read it under the item's lock in this
   * transaction (`variants.findForWrite`; null: none); read here when undefined.
   */
  readonly latest?: StoredVersion | null | undefined;
}

async function insertVersion(
  tx: UnitOfWork,
  input: Omit<Save, 'actor'> & { userId: string | null; via: VersionInterface; previous: StoredVersion | null },
): Promise<StoredVersion> {
  const { previous, before, after } = input;
  const seq = (previous?.seq ?? 0) + 1;
  const changed =
    previous && input.changed
      ? [...input.changed]
      : changedElementIds(previous ? (before?.elements ?? null) : null, after.elements);
  const total = Object.keys(after.elements).length;
  // A delta pays while it is small against the whole; a long chain is cut by a snapshot.
  const isSnapshot = previous === null || seq - previous.baseSeq >= snapshotEvery || changed.length * 2 >= total;
  const elements: Record<string, StoredElementValue | null> = {};
  for (const id of isSnapshot ? Object.keys(after.elements) : changed) elements[id] = after.elements[id] ?? null;
  const id = randomUUID();
  const isPublished = after.stepId === systemStepIds.published && after.published !== null;
  const publishedVersionId =
    after.published === null
      ? null
      : previous !== null && isDeepStrictEqual(after.published, before?.published ?? null)
        ? (previous.publishedVersionId ?? (isPublished ? id : null))
        : id;
  const version: StoredVersion = {
    id,
    projectId: after.projectId,
    itemId: after.itemId,
    languageId: after.languageId,
    seq,
    baseSeq: isSnapshot ? seq : (previous?.baseSeq ?? seq),
    isSnapshot,
    createdAt: input.at,
    userId: input.userId,
    via: input.via,
    operation: input.operation,
    workflowId: after.workflowId,
    stepId: after.stepId,
    isPublished,
    publishedVersionId,
    changedElements: previous ? changed : Object.keys(after.elements),
    elements,
    meta: metaOf(after),
    restoredFrom: null,
  };
  await tx.history.insert(version);
  return version;
}

/**
 * Keeps the variant's new state as a version, in the caller's transaction (called by every core
 * path that saves a variant, right after `tx.variants.save`). A variant saved before history was
 * kept first gets a baseline: its published version when a newer draft sits on it, then its
 * latest version, so what was there stays readable and restorable.
 */
export async function recordVersion(tx: UnitOfWork, save: Save): Promise<StoredVersion> {
  const ref = { projectId: save.after.projectId, itemId: save.after.itemId, languageId: save.after.languageId };
  let previous = save.latest !== undefined ? save.latest : await tx.history.latest(ref);
  if (previous === null && save.before !== null) previous = await recordBaseline(tx, save.before);
  return insertVersion(tx, {
    ...save,
    userId: userOf(save.actor),
    via: save.via ?? interfaceOf(save.actor),
    previous,
  });
}

async function recordBaseline(tx: UnitOfWork, before: VariantRecord): Promise<StoredVersion> {
  const base = { userId: null, via: 'system' as const, operation: 'baseline', at: before.lastModified };
  let previous: StoredVersion | null = null;
  if (before.published !== null && before.stepId !== systemStepIds.published) {
    const published: VariantRecord = {
      ...before,
      stepId: systemStepIds.published,
      elements: before.published.elements,
      lastModified: new Date(before.published.lastModified),
    };
    previous = await insertVersion(tx, { ...base, before: null, after: published, previous: null });
  }
  return insertVersion(tx, {
    ...base,
    before: previous ? { ...before, elements: previous.elements as Elements } : null,
    after: before,
    previous,
  });
}
