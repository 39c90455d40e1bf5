import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import type { RecordKey } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { LanguageBody } from '../../model/languages.ts';
import {
  assertMayChange,
  assertModelAccess,
  describeReference,
  generateCodename,
  idFromExternalId,
  isRecord,
  keysetAfter,
  keysetPage,
  Problems,
  type Continuation,
  type ModelInput,
} from '../../model/shared/index.ts';
import type { AssetRecord, BinaryFileRecord } from './asset-record.ts';
import { newAssetRecord, readAssetBody, type AssetChanges } from './asset-input.ts';
import { assetEvents } from './events.ts';

/** An asset with what its Management API form needs: its file and the active languages. */
export interface AssetView {
  readonly asset: AssetRecord;
  readonly file: BinaryFileRecord;
  /** Ids of the project's active languages, in their order. */
  readonly languageIds: readonly string[];
}

export const assetKind = 'asset';
export const assetPageSize = 100;

/** Where binaries are served: `<base>/<project>/<file id>/<file name>` (reference §2.8 URL form). */
export function assetUrl(base: string, file: BinaryFileRecord): string {
  return `${base.replace(/\/$/, '')}/${file.projectId}/${file.id}/${encodeURIComponent(file.fileName)}`;
}

/** The Management API v2 asset (reference §2.8). `assetsBase` is the public URL prefix of binaries. */
export function assetJson(view: AssetView, assetsBase: string) {
  const { asset, file } = view;
  return {
    id: asset.id,
    file_name: file.fileName,
    title: asset.title,
    size: file.size,
    type: file.contentType,
    url: assetUrl(assetsBase, file),
    image_width: file.imageWidth,
    image_height: file.imageHeight,
    file_reference: { id: file.id, type: 'internal' },
    descriptions: view.languageIds.map((id) => ({ language: { id }, description: asset.descriptions[id] ?? null })),
    ...(asset.folderId === null ? {} : { folder: { id: asset.folderId } }),
    collection: { reference: asset.collectionId === null ? null : { id: asset.collectionId } },
    elements: asset.elements.map((e) => ({ element: { id: e.element.id }, value: e.value.map((v) => ({ id: v.id })) })),
    codename: asset.codename,
    ...(asset.externalId === null ? {} : { external_id: asset.externalId }),
    last_modified: asset.lastModified.toISOString(),
  };
}

/** The Management API v1 asset: v2's minus folder, codename, collection and elements (reference §7.1). */
export function assetJsonV1(view: AssetView, assetsBase: string) {
  const {
    folder: _folder,
    codename: _codename,
    collection: _collection,
    elements: _elements,
    ...rest
  } = assetJson(view, assetsBase);
  return rest;
}

async function activeLanguageIds(tx: UnitOfWork, projectId: string): Promise<string[]> {
  const languages = await tx.model.list<LanguageBody>(projectId, 'language');
  return languages.filter((l) => l.body.is_active).map((l) => l.id);
}

async function viewsOf(tx: UnitOfWork, projectId: string, assets: readonly AssetRecord[]): Promise<AssetView[]> {
  const files = new Map(
    (await tx.binaryFiles.getMany(projectId, [...new Set(assets.map((a) => a.fileId))])).map((f) => [f.id, f]),
  );
  const languageIds = await activeLanguageIds(tx, projectId);
  return assets.map((asset) => {
    const file = files.get(asset.fileId);
    if (!file) throw new Error(`Asset ${asset.id} references the missing file ${asset.fileId}`);
    return { asset, file, languageIds };
  });
}

function hasFileReference(body: unknown): boolean {
  return isRecord(body) && body['file_reference'] !== undefined && body['file_reference'] !== null;
}

async function requireAsset(tx: UnitOfWork, projectId: string, key: RecordKey, isForUpdate = false) {
  const found = await tx.assets.find(projectId, key, { isForUpdate });
  if (!found)
    throw new LecternError('ASSET_NOT_FOUND', {
      message: `The requested asset with ${describeReference(key)} was not found.`,
    });
  return found;
}

/** One page of assets in creation order, read by key from the store, with the token of the next page (null on the last). */
export async function listAssets(
  deps: CoreDeps,
  input: ModelInput & { continuation?: Continuation | undefined; pageSize?: number },
): Promise<{ items: AssetView[]; continuationToken: string | null }> {
  assertModelAccess(input.actor, input.projectId);
  const list = { name: 'assets', scope: [input.projectId], keyLength: 1 };
  const after = keysetAfter(list, input.continuation);
  return deps.store.transaction(async (tx) => {
    const limit = input.pageSize ?? assetPageSize;
    const page = keysetPage(list, await tx.assets.page(input.projectId, { after, limit }));
    return { items: await viewsOf(tx, input.projectId, page.items), continuationToken: page.continuationToken };
  });
}

export async function getAsset(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<AssetView> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const asset = await requireAsset(tx, input.projectId, input.key);
    return (await viewsOf(tx, input.projectId, [asset]))[0] as AssetView;
  });
}

/** A codename from the title, else the file name, unique among the project's assets. */
async function codenameFor(tx: UnitOfWork, projectId: string, id: string, name: string): Promise<string> {
  const candidates: string[] = [];
  generateCodename({ name, id, isTaken: (c) => (candidates.push(c), true) });
  const taken = new Set<string>();
  for (const c of candidates) if (await tx.assets.isCodenameTaken(projectId, c)) taken.add(c);
  return generateCodename({ name, id, isTaken: (c) => taken.has(c) });
}

async function create(
  deps: CoreDeps,
  tx: UnitOfWork,
  options: { projectId: string; id: string; externalId: string | null; changes: AssetChanges },
): Promise<AssetView> {
  const { changes } = options;
  const file = changes.file as BinaryFileRecord;
  const codename =
    changes.codename ?? (await codenameFor(tx, options.projectId, options.id, changes.title ?? file.fileName));
  const record = newAssetRecord({ ...options, codename, file, changes, now: deps.clock.now() });
  await tx.assets.insert(record);
  await tx.outbox.append(options.projectId, assetEvents('create', record), record.lastModified);
  return { asset: record, file, languageIds: await activeLanguageIds(tx, options.projectId) };
}

/** POST /assets: a new asset for an uploaded, unused file (201). */
export async function addAsset(
  deps: CoreDeps,
  input: ModelInput & { body: unknown; isV1?: boolean },
): Promise<AssetView> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  return deps.store.transaction(async (tx) => {
    await tx.assets.lock(input.projectId);
    const problems = new Problems();
    const changes = await readAssetBody(tx, {
      projectId: input.projectId,
      body: input.body,
      problems,
      assetId: null,
      isExternalIdAllowed: true,
      isV1: input.isV1 ?? false,
    });
    if (!changes.file && !hasFileReference(input.body))
      problems.add('file_reference', 'is required: the file the asset shows');
    problems.throwIfAny();
    const externalId = changes.externalId ?? null;
    const id =
      externalId === null
        ? deps.ids.uuid()
        : idFromExternalId({ projectId: input.projectId, kind: assetKind, externalId });
    return create(deps, tx, { projectId: input.projectId, id, externalId, changes });
  });
}

/**
 * PUT /assets/{identifier}: updates the asset, or creates it when the path names it by external id
 * and it does not exist (reference §1.2, checklist 1). Fields left out of the body keep their
 * values; `descriptions`, when sent, replace all descriptions. `file_reference` is required
 * (SPEC 4.2) unless `isFileOptionalOnUpdate`, which lets an update keep the asset's file as the
 * current Kontent.ai reference does.
 */
export async function upsertAsset(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; body: unknown; isV1?: boolean; isFileOptionalOnUpdate?: boolean },
): Promise<{ view: AssetView; isCreated: boolean }> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  return deps.store.transaction(async (tx) => {
    await tx.assets.lock(input.projectId);
    const current = await tx.assets.find(input.projectId, input.key, { isForUpdate: true });
    if (!current && !('externalId' in input.key)) await requireAsset(tx, input.projectId, input.key);
    const problems = new Problems();
    const changes = await readAssetBody(tx, {
      projectId: input.projectId,
      body: input.body,
      problems,
      assetId: current?.id ?? null,
      isExternalIdAllowed: false,
      isV1: input.isV1 ?? false,
    });
    if (!changes.file && !hasFileReference(input.body)) {
      if (!current) problems.add('file_reference', 'is required when the asset is created');
      else if (input.isFileOptionalOnUpdate !== true)
        problems.add('file_reference', "is required: send the asset's file (its current one to keep it)");
    }
    problems.throwIfAny();
    if (!current) {
      const externalId = (input.key as { externalId: string }).externalId;
      const id = idFromExternalId({ projectId: input.projectId, kind: assetKind, externalId });
      return { view: await create(deps, tx, { projectId: input.projectId, id, externalId, changes }), isCreated: true };
    }
    const next: AssetRecord = {
      ...current,
      fileId: changes.file?.id ?? current.fileId,
      title: changes.title === undefined ? current.title : changes.title,
      codename: changes.codename ?? current.codename,
      descriptions: changes.descriptions ?? current.descriptions,
      folderId: changes.folderId === undefined ? current.folderId : changes.folderId,
      collectionId: changes.collectionId === undefined ? current.collectionId : changes.collectionId,
      elements: changes.elements ?? current.elements,
      lastModified: deps.clock.now(),
    };
    await tx.assets.update(next);
    await tx.outbox.append(input.projectId, assetEvents('update', next, current), next.lastModified);
    return { view: (await viewsOf(tx, input.projectId, [next]))[0] as AssetView, isCreated: false };
  });
}

/**
 * DELETE /assets/{identifier} (204). The binary file stays, so a new asset can take it again (an
 * import that deletes and re-creates assets keeps its file references).
 */
export async function deleteAsset(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  await deps.store.transaction(async (tx) => {
    const current = await requireAsset(tx, input.projectId, input.key, true);
    await tx.assets.delete(input.projectId, current.id);
    const now = deps.clock.now();
    await tx.outbox.append(input.projectId, assetEvents('delete', current), now);
  });
}
