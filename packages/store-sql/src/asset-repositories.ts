import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type {
  AssetFolder,
  AssetFolderRepository,
  AssetRecord,
  AssetRepository,
  BinaryFileRecord,
  BinaryFileRepository,
  PendingUploadRepository,
} from '@lectern/core';
import type { AssetsTable, BinaryFilesTable, Database, StoredAssetFolder } from './schema.ts';
import { isDeleted, projectRows, whereRow } from './project-rows.ts';

function toFile(row: Selectable<BinaryFilesTable>): BinaryFileRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    fileName: row.file_name,
    contentType: row.content_type,
    size: Number(row.size),
    imageWidth: row.image_width,
    imageHeight: row.image_height,
    blobKey: row.blob_key,
    createdAt: new Date(row.created_at),
  };
}

export function binaryFileRepository(db: Kysely<Database>): BinaryFileRepository {
  return {
    async insert(f) {
      await db
        .insertInto('binary_files')
        .values({
          project_id: f.projectId,
          id: f.id,
          file_name: f.fileName,
          content_type: f.contentType,
          size: f.size,
          image_width: f.imageWidth,
          image_height: f.imageHeight,
          blob_key: f.blobKey,
          created_at: f.createdAt,
        })
        .execute();
    },
    async get(projectId, id) {
      const row = await whereRow(db.selectFrom('binary_files').selectAll(), projectId, id).executeTakeFirst();
      return row ? toFile(row) : null;
    },
    async getMany(projectId, ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('binary_files')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', 'in', [...ids])
        .execute();
      return rows.map(toFile);
    },
  };
}

function toAsset(row: Selectable<AssetsTable>): AssetRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    codename: row.codename,
    externalId: row.external_id,
    fileId: row.file_id,
    title: row.title,
    folderId: row.folder_id,
    collectionId: row.collection_id,
    descriptions: row.descriptions,
    elements: row.elements,
    lastModified: new Date(row.last_modified),
  };
}

function assetValues(r: AssetRecord): Omit<Insertable<AssetsTable>, 'project_id' | 'id'> {
  return {
    codename: r.codename,
    external_id: r.externalId,
    file_id: r.fileId,
    title: r.title,
    folder_id: r.folderId,
    collection_id: r.collectionId,
    descriptions: JSON.stringify(r.descriptions),
    elements: JSON.stringify(r.elements),
    last_modified: r.lastModified,
  };
}

export function assetRepository(db: Kysely<Database>): AssetRepository {
  const select = (projectId: string) => db.selectFrom('assets').selectAll().where('project_id', '=', projectId);
  const rows = projectRows(db, { select, map: toAsset });
  return {
    page: rows.page,
    find: rows.find,
    findMany: rows.findMany,
    async findByFile(projectId, fileId) {
      const row = await select(projectId).where('file_id', '=', fileId).executeTakeFirst();
      return row ? toAsset(row) : null;
    },
    async isCodenameTaken(projectId, codename, exceptId) {
      let query = db
        .selectFrom('assets')
        .select('id')
        .where('project_id', '=', projectId)
        .where('codename', '=', codename);
      if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },
    async insert(r) {
      await db
        .insertInto('assets')
        .values({ project_id: r.projectId, id: r.id, ...assetValues(r) })
        .execute();
    },
    async update(r) {
      await whereRow(db.updateTable('assets').set(assetValues(r)), r.projectId, r.id).execute();
    },
    delete: (projectId, id) => isDeleted(whereRow(db.deleteFrom('assets'), projectId, id)),
    async moveToRoot(projectId, folderIds, at) {
      if (folderIds.length === 0) return [];
      const rows = await db
        .updateTable('assets')
        .set({ folder_id: null, last_modified: at })
        .where('project_id', '=', projectId)
        .where('folder_id', 'in', [...folderIds])
        .returningAll()
        .execute();
      return rows.map(toAsset);
    },
    async lock(projectId) {
      await sql`select pg_advisory_xact_lock(hashtext(${`${projectId}/asset`}))`.execute(db);
    },
  };
}

function fromStored(f: StoredAssetFolder): AssetFolder {
  return {
    id: f.id,
    name: f.name,
    codename: f.codename,
    externalId: f.external_id,
    folders: f.folders.map(fromStored),
  };
}

function toStored(f: AssetFolder): StoredAssetFolder {
  return {
    id: f.id,
    name: f.name,
    codename: f.codename,
    external_id: f.externalId,
    folders: f.folders.map(toStored),
  };
}

export function assetFolderRepository(db: Kysely<Database>): AssetFolderRepository {
  return {
    async get(projectId, options = {}) {
      const query = db.selectFrom('asset_folder_trees').selectAll().where('project_id', '=', projectId);
      const row = await (options.isForUpdate ? query.forUpdate() : query).executeTakeFirst();
      return row ? { folders: row.folders.map(fromStored), lastModified: new Date(row.last_modified) } : null;
    },
    async save(projectId, tree) {
      const values = { folders: JSON.stringify(tree.folders.map(toStored)), last_modified: tree.lastModified };
      await db
        .insertInto('asset_folder_trees')
        .values({ project_id: projectId, ...values })
        .onConflict((oc) => oc.column('project_id').doUpdateSet(values))
        .execute();
    },
  };
}

export function pendingUploadRepository(db: Kysely<Database>): PendingUploadRepository {
  return {
    async begin(u) {
      await db
        .insertInto('pending_uploads')
        .values({ blob_key: u.key, project_id: u.projectId, started_at: u.startedAt })
        .onConflict((oc) => oc.column('blob_key').doNothing())
        .execute();
    },
    async end(key) {
      await db.deleteFrom('pending_uploads').where('blob_key', '=', key).execute();
    },
    async startedBefore(before, limit) {
      const rows = await db
        .selectFrom('pending_uploads')
        .select(['blob_key', 'project_id'])
        .where('started_at', '<', before)
        .orderBy('started_at')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ key: r.blob_key, projectId: r.project_id }));
    },
  };
}
