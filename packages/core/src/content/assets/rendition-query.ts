import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { at, describeReference, isRecord, readReference, type Problems } from '../../model/shared/index.ts';
import { idFromExternalId } from '../../model/shared/external-id.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { BinaryFileRecord } from './asset-record.ts';
import type { RenditionBody, RenditionRecord, Transformation } from './renditions.ts';

/** Codename of the one preset Kontent.ai has today; Delivery keys renditions by it. */
export const defaultPresetCodename = 'default';

/**
 * The image transformation query of a rendition, as Delivery's `renditions.<preset>.query` and
 * as the asset URL applies it: `w=<custom_width>&h=<custom_height>&fit=clip&rect=x,y,width,height`.
 */
export function renditionQuery(t: Transformation): string {
  return `w=${t.custom_width}&h=${t.custom_height}&fit=${t.fit}&rect=${t.x},${t.y},${t.width},${t.height}`;
}

/**
 * The file behind a public asset URL, and the query of `renditionId` when given (a rendition of
 * the asset that uses the file). Null when the file or its name is unknown; a rendition of
 * another asset, or none, is RENDITION_NOT_FOUND. Public like the URL itself: the file id is
 * the secret, as at Kontent.ai.
 */
export async function findImageSource(
  deps: CoreDeps,
  input: { projectId: string; fileId: string; fileName: string; renditionId?: string | undefined },
): Promise<{ file: BinaryFileRecord; renditionQuery: string | null } | null> {
  return deps.store.transaction(async (tx) => {
    const file = await tx.binaryFiles.get(input.projectId, input.fileId);
    if (!file || file.fileName !== input.fileName) return null;
    if (input.renditionId === undefined) return { file, renditionQuery: null };
    const asset = await tx.assets.findByFile(input.projectId, input.fileId);
    const rendition = await tx.model.find<RenditionBody>(input.projectId, 'rendition', { id: input.renditionId });
    if (!asset || !rendition || rendition.body.asset_id !== asset.id) throw new LecternError('RENDITION_NOT_FOUND');
    return { file, renditionQuery: renditionQuery(rendition.body.transformation) };
  });
}

/** The id of the default preset of a project (Kontent.ai has one preset per environment today). */
export function defaultPresetId(projectId: string): string {
  return idFromExternalId({ projectId, kind: 'rendition_preset', externalId: defaultPresetCodename });
}

/** A rendition as a Delivery asset element lists it under its preset's codename. */
export function deliveryRendition(projectId: string, r: RenditionRecord) {
  const t = r.body.transformation;
  return {
    rendition_id: r.id,
    preset_id: defaultPresetId(projectId),
    width: t.custom_width,
    height: t.custom_height,
    query: renditionQuery(t),
  };
}

/**
 * The `renditions` of one asset reference in a variant's asset element (`[{id} | {external_id}]`,
 * reference §2.3): each must be a rendition of that asset. Problems are added at `path`.
 */
export async function readRenditionRefs(options: {
  raw: unknown;
  assetId: string;
  path: string;
  tx: UnitOfWork;
  projectId: string;
  problems: Problems;
}): Promise<{ id: string }[]> {
  const { raw, problems, path } = options;
  const list = isRecord(raw) ? raw['renditions'] : undefined;
  if (list === undefined || list === null) return [];
  const listPath = at(path, 'renditions');
  if (!Array.isArray(list)) {
    problems.add(listPath, 'must be an array of rendition references');
    return [];
  }
  const out: { id: string }[] = [];
  for (const [i, value] of list.entries()) {
    const ref = readReference(value, at(listPath, i), problems);
    if (!ref) continue;
    if ('codename' in ref) {
      problems.add(at(listPath, i), 'Renditions have no codename; reference them by id or external_id.');
      continue;
    }
    const key = 'id' in ref ? { id: ref.id } : { externalId: ref.external_id };
    const found = await options.tx.model.find<RenditionBody>(options.projectId, 'rendition', key);
    if (!found || found.body.asset_id !== options.assetId)
      problems.add(at(listPath, i), `The rendition with ${describeReference(ref)} was not found for this asset.`);
    else if (!out.some((o) => o.id === found.id)) out.push({ id: found.id });
  }
  return out;
}
