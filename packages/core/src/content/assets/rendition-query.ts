import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import type { BinaryFileRecord } from './asset-record.ts';
import type { RenditionBody, Transformation } from './renditions.ts';

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
