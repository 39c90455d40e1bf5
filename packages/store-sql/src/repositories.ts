import { presenceRepository } from './presence-repository.ts';
import { sql, type Kysely, type Selectable } from 'kysely';
import { imageCacheRepository } from './image-cache-repository.ts';
import { peopleRepository } from './people-repository.ts';
import { commentRepository } from './comment-repository.ts';
import { auditLogRepository } from './audit-repository.ts';
import type {
  AuditCollector,
  ApiKeyKind,
  ApiKeyRecord,
  ApiKeyRepository,
  Project,
  ProjectRepository,
  UnitOfWork,
  User,
  UserRepository,
} from '@lectern/core';
import type { ApiKeysTable, Database, ProjectsTable } from './schema.ts';
import { modelRepository, rateLimitRepository } from './model-repositories.ts';
import { contentItemRepository, scheduledJobRepository, variantRepository } from './content-repositories.ts';
import { outbox, outboxRelay } from './outbox-repositories.ts';
import {
  assetFolderRepository,
  assetRepository,
  binaryFileRepository,
  pendingUploadRepository,
} from './asset-repositories.ts';
import { notify } from './signals.ts';
import { run } from './prepared-text.ts';
import { webhookRepository } from './webhook-repositories.ts';
import { noticeRepository, webhookQueueRepository } from './webhook-queue-repositories.ts';
import { backgroundTaskRepository } from './task-repositories.ts';
import { variantHistoryRepository } from './history-repository.ts';

const noOwner = '00000000-0000-0000-0000-000000000000';

function toProject(row: Selectable<ProjectsTable>): Project {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    isSecureAccess: row.is_secure_access,
    isProduction: row.is_production,
    createdAt: new Date(row.created_at),
  };
}

function toKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    kind: row.kind as ApiKeyKind,
    ownerUserId: row.owner_user_id,
    secretHash: row.secret_hash,
    createdAt: new Date(row.created_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  };
}

/** `apiKeys.getWithOwner`, on every Management request: the key and its owner's `project_user` body. */
const keyWithOwnerText = `select k.*, owner.body as owner_body from api_keys k
  left join model_objects owner
    on owner.project_id = k.project_id and owner.kind = 'project_user' and owner.id = k.owner_user_id
  where k.id = $1`;

function projects(db: Kysely<Database>): ProjectRepository {
  return {
    async insert(p) {
      await db
        .insertInto('projects')
        .values({
          id: p.id,
          name: p.name,
          environment: p.environment,
          is_secure_access: p.isSecureAccess,
          is_production: p.isProduction,
          created_at: p.createdAt,
        })
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toProject(row) : null;
    },
    async list() {
      const rows = await db.selectFrom('projects').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toProject);
    },
    async delete(id) {
      await db.deleteFrom('scheduled_jobs').where('project_id', '=', id).execute();
      const result = await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst();
      const isDeleted = Number(result.numDeletedRows) > 0;
      // Cached Delivery authentication forgets the project, so its index is no longer served.
      if (isDeleted) await notify(db, 'access', id);
      return isDeleted;
    },
    async update(id, changes) {
      const values = {
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.isSecureAccess === undefined ? {} : { is_secure_access: changes.isSecureAccess }),
        ...(changes.environment === undefined ? {} : { environment: changes.environment }),
        ...(changes.isProduction === undefined ? {} : { is_production: changes.isProduction }),
      };
      const row =
        Object.keys(values).length === 0
          ? await db.selectFrom('projects').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
          : await db.updateTable('projects').set(values).where('id', '=', id).returningAll().executeTakeFirst();
      if (row && changes.isSecureAccess !== undefined) await notify(db, 'access', row.id);
      return row ? toProject(row) : null;
    },
  };
}

function users(db: Kysely<Database>): UserRepository {
  const toUser = (row: { id: string; email: string; name: string; created_at: Date }): User => ({
    ...row,
    createdAt: new Date(row.created_at),
  });
  return {
    async insert(u) {
      // A concurrent insert of the same e-mail waits here for the other's commit, then keeps it.
      await db
        .insertInto('users')
        .values({ id: u.id, email: u.email, name: u.name, created_at: u.createdAt })
        .onConflict((oc) => oc.column('email').doNothing())
        .execute();
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'created_at'])
        .where('email', '=', u.email)
        .executeTakeFirstOrThrow();
      return toUser(row);
    },
    async get(id) {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'created_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async findByEmail(email) {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'created_at'])
        .where('email', '=', email)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
  };
}

function apiKeys(db: Kysely<Database>): ApiKeyRepository {
  return {
    async insert(k) {
      await db
        .insertInto('api_keys')
        .values({
          id: k.id,
          project_id: k.projectId,
          kind: k.kind,
          owner_user_id: k.ownerUserId,
          secret_hash: k.secretHash,
          created_at: k.createdAt,
          expires_at: k.expiresAt,
          revoked_at: k.revokedAt,
        })
        .execute();
      await notify(db, 'access', k.projectId);
    },
    async get(id) {
      const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toKey(row) : null;
    },
    async getWithOwner(id) {
      // One round trip for what authenticating a management key reads on every request.
      const [row] = await run<Selectable<ApiKeysTable> & { owner_body: Record<string, unknown> | null }>(
        db,
        keyWithOwnerText,
        [id],
      );
      if (!row) return null;
      const { owner_body: owner, ...key } = row;
      return { key: toKey(key), owner: owner ?? null };
    },
    async listByProject(projectId) {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toKey);
    },
    async findActive(slot) {
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('project_id', '=', slot.projectId)
        .where('kind', '=', slot.kind)
        .where(sql<string>`coalesce(owner_user_id, ${noOwner}::uuid)`, '=', slot.ownerUserId ?? noOwner)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? toKey(row) : null;
    },
    async revoke(id, at) {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning('project_id')
        .executeTakeFirst();
      if (result !== undefined) await notify(db, 'access', result.project_id);
      return result !== undefined;
    },
  };
}

/**
 * The repositories of one transaction (or of reads outside one) on `db`. `audit` collects what the
 * transaction changed (its outbox appends and explicit notes, see `AuditCollector`); the store
 * writes the entry before commit. `memo`: the store's memory shared by its transactions
 * (`UnitOfWork.memo`).
 */
export function unitOfWork(db: Kysely<Database>, audit: AuditCollector, memo?: Map<string, unknown>): UnitOfWork {
  const outboxOfTx = outbox(db);
  const modelOfTx = modelRepository(db);
  const itemsOfTx = contentItemRepository(db);
  // Once this transaction wrote the model, it reads rows other transactions must not share: it
  // answers no model version (the memo is then not used; see projectModelMemo).
  let isModelWritten = false;
  const written =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    (...args: A) => {
      isModelWritten = true;
      return write(...args);
    };
  return {
    ...(memo === undefined ? {} : { memo }),
    projects: projects(db),
    users: users(db),
    apiKeys: apiKeys(db),
    outbox: {
      ...outboxOfTx,
      append(projectId, events, occurredAt) {
        audit.noteEvents(projectId, events, occurredAt);
        return outboxOfTx.append(projectId, events, occurredAt);
      },
    },
    outboxRelay: outboxRelay(db),
    model: {
      ...modelOfTx,
      insert: written(modelOfTx.insert),
      update: written(modelOfTx.update),
      delete: written(modelOfTx.delete),
    },
    rateLimits: rateLimitRepository(db),
    items: {
      ...itemsOfTx,
      async findForWrite(projectId, key) {
        const found = await itemsOfTx.findForWrite(projectId, key);
        return found && isModelWritten ? { ...found, modelVersion: null } : found;
      },
      async findByExternalIdForUpsert(projectId, externalId, derivedId) {
        const found = await itemsOfTx.findByExternalIdForUpsert(projectId, externalId, derivedId);
        return isModelWritten ? { ...found, modelVersion: null } : found;
      },
      async modelVersion(projectId) {
        const version = await itemsOfTx.modelVersion(projectId);
        return isModelWritten ? null : version;
      },
    },
    variants: variantRepository(db),
    scheduledJobs: scheduledJobRepository(db),
    binaryFiles: binaryFileRepository(db),
    assets: assetRepository(db),
    assetFolders: assetFolderRepository(db),
    webhooks: webhookRepository(db),
    webhookQueue: webhookQueueRepository(db),
    notices: noticeRepository(db),
    backgroundTasks: backgroundTaskRepository(db),
    imageCache: imageCacheRepository(db),
    pendingUploads: pendingUploadRepository(db),
    people: peopleRepository(db),
    comments: commentRepository(db),
    presence: presenceRepository(db),
    history: variantHistoryRepository(db),
    audit: {
      ...auditLogRepository(db),
      note: (entry) => audit.note(entry),
      describe: (summary) => audit.describe(summary),
    },
  };
}
