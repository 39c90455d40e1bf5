import { LecternError } from '@lectern/errors';
import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import { readExternalId } from '../../model/collections/model-fields.ts';
import {
  assertMayChange,
  assertModelAccess,
  at,
  isRecord,
  paginate,
  Problems,
  type Continuation,
  type ModelInput,
  type Page,
} from '../../model/shared/index.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { AssetRecord } from './asset-record.ts';
import { assetEvents } from './events.ts';

/*
 * Asset renditions (reference §2.8): a crop-and-resize preset stored with an image asset, one
 * model document of kind `rendition` each (by id or external id). The rectangle must lie in the
 * image and the output size must not exceed it. Variants choose renditions in their asset
 * elements; Delivery lists the chosen one, and asset URLs apply it (`?rendition=<id>`). Each add
 * or change appends the asset's update events, so the items using the asset are re-rendered.
 */

export interface Transformation {
  mode: 'rect';
  fit: 'clip';
  custom_width: number;
  custom_height: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RenditionBody {
  asset_id: string;
  transformation: Transformation;
}

export type RenditionRecord = ModelRecord<RenditionBody>;

export function renditionJson(r: RenditionRecord) {
  return {
    rendition_id: r.id,
    asset_id: r.body.asset_id,
    ...(r.externalId === null ? {} : { external_id: r.externalId }),
    transformation: { ...r.body.transformation },
    last_modified: r.lastModified.toISOString(),
  };
}

type AssetInput = ModelInput & { assetKey: RecordKey };

async function requireImage(
  tx: UnitOfWork,
  input: AssetInput,
): Promise<{ asset: AssetRecord; width: number; height: number }> {
  const asset = await tx.assets.find(input.projectId, input.assetKey);
  if (!asset) throw new LecternError('ASSET_NOT_FOUND');
  const file = await tx.binaryFiles.get(input.projectId, asset.fileId);
  return { asset, width: file?.imageWidth ?? 0, height: file?.imageHeight ?? 0 };
}

function readTransformation(
  raw: unknown,
  image: { width: number; height: number },
  problems: Problems,
): Transformation | null {
  const path = 'transformation';
  if (!isRecord(raw)) {
    problems.add(path, 'Provide the transformation {mode, fit, custom_width, custom_height, x, y, width, height}.');
    return null;
  }
  if (raw['mode'] !== 'rect') problems.add(at(path, 'mode'), 'Only the "rect" mode is allowed.');
  if (raw['fit'] !== 'clip') problems.add(at(path, 'fit'), 'Only the "clip" fit is allowed.');
  const n = (key: string, min: number) => {
    const v = raw[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      problems.add(at(path, key), `must be a whole number of pixels, at least ${min}`);
      return null;
    }
    return v;
  };
  const t = {
    custom_width: n('custom_width', 1),
    custom_height: n('custom_height', 1),
    x: n('x', 0),
    y: n('y', 0),
    width: n('width', 1),
    height: n('height', 1),
  };
  if (image.width === 0) problems.add(undefined, 'Renditions exist only for images whose size is known.');
  if (t.x !== null && t.width !== null && t.x + t.width > image.width)
    problems.add(at(path, 'width'), `The rectangle must lie within the image (${image.width} pixels wide).`);
  if (t.y !== null && t.height !== null && t.y + t.height > image.height)
    problems.add(at(path, 'height'), `The rectangle must lie within the image (${image.height} pixels high).`);
  if (t.custom_width !== null && t.width !== null && t.custom_width > t.width)
    problems.add(at(path, 'custom_width'), 'must not be larger than width');
  if (t.custom_height !== null && t.height !== null && t.custom_height > t.height)
    problems.add(at(path, 'custom_height'), 'must not be larger than height');
  if (Object.values(t).some((v) => v === null)) return null;
  return { mode: 'rect', fit: 'clip', ...(t as Omit<Transformation, 'mode' | 'fit'>) };
}

async function requireRendition(tx: UnitOfWork, input: AssetInput & { key: RecordKey }, asset: AssetRecord) {
  const found = await tx.model.find<RenditionBody>(input.projectId, 'rendition', input.key, { isForUpdate: true });
  if (!found || found.body.asset_id !== asset.id) throw new LecternError('RENDITION_NOT_FOUND');
  return found;
}

export async function listRenditions(
  deps: CoreDeps,
  input: AssetInput & { continuation?: Continuation | undefined },
): Promise<Page<RenditionRecord>> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const { asset } = await requireImage(tx, input);
    const all = (await tx.model.list<RenditionBody>(input.projectId, 'rendition')).filter(
      (r) => r.body.asset_id === asset.id,
    );
    return paginate(all, { continuation: input.continuation });
  });
}

export async function getRendition(deps: CoreDeps, input: AssetInput & { key: RecordKey }): Promise<RenditionRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => requireRendition(tx, input, (await requireImage(tx, input)).asset));
}

export async function addRendition(deps: CoreDeps, input: AssetInput & { body: unknown }): Promise<RenditionRecord> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  return deps.store.transaction(async (tx) => {
    await tx.model.lockKind(input.projectId, 'rendition');
    const image = await requireImage(tx, input);
    const problems = new Problems();
    const body = isRecord(input.body) ? input.body : {};
    const externalId = readExternalId(body['external_id'], 'external_id', problems);
    const transformation = readTransformation(body['transformation'], image, problems);
    if (typeof externalId === 'string' && (await tx.model.find(input.projectId, 'rendition', { externalId })))
      problems.add('external_id', `The external id '${externalId}' is already used by another rendition.`);
    problems.throwIfAny();
    const id = deps.ids.uuid();
    const record: RenditionRecord = {
      projectId: input.projectId,
      kind: 'rendition',
      id,
      codename: `rendition_${id.replaceAll('-', '')}`,
      externalId: externalId ?? null,
      body: { asset_id: image.asset.id, transformation: transformation as Transformation },
      lastModified: deps.clock.now(),
    };
    await tx.model.insert(record);
    await tx.outbox.append(input.projectId, assetEvents('update', image.asset), record.lastModified);
    return record;
  });
}

export async function modifyRendition(
  deps: CoreDeps,
  input: AssetInput & { key: RecordKey; body: unknown },
): Promise<RenditionRecord> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  return deps.store.transaction(async (tx) => {
    const image = await requireImage(tx, input);
    const current = await requireRendition(tx, input, image.asset);
    const problems = new Problems();
    const transformation = readTransformation(
      isRecord(input.body) ? input.body['transformation'] : undefined,
      image,
      problems,
    );
    problems.throwIfAny();
    const next: RenditionRecord = {
      ...current,
      body: { ...current.body, transformation: transformation as Transformation },
      lastModified: deps.clock.now(),
    };
    await tx.model.update(next);
    // Delivery shows renditions in asset elements: the asset's events re-render the items using it.
    await tx.outbox.append(input.projectId, assetEvents('update', image.asset), next.lastModified);
    return next;
  });
}
