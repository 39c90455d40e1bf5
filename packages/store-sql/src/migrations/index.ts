import type { Migration, MigrationProvider } from 'kysely/migration';
import * as foundation from './0001-foundation.ts';
import * as contentModel from './0002-content-model.ts';
import * as content from './0003-content.ts';
import * as assets from './0004-assets.ts';
import * as deliveryIndex from './0005-delivery-index.ts';
import * as syncChanges from './0006-sync-changes.ts';
import * as outboxRelay from './0007-outbox-relay.ts';
import * as deliveryValues from './0008-delivery-values.ts';
import * as managementPaging from './0009-management-paging.ts';
import * as webhooks from './0010-webhooks.ts';
import * as recommendations from './0011-recommendations.ts';
import * as backgroundTasks from './0012-background-tasks.ts';
import * as recsEntryCount from './0013-recs-entry-count.ts';
import * as imageCache from './0014-image-cache.ts';
import * as pendingUploads from './0015-pending-uploads.ts';
import * as people from './0016-people.ts';
import * as inventory from './0017-inventory.ts';
import * as deliveryTypeLinks from './0018-delivery-type-links.ts';
import * as variantHistory from './0019-variant-history.ts';
import * as auditLog from './0020-audit-log.ts';
import * as presence from './0022-presence.ts';
import * as comments from './0023-comments.ts';
import * as recsPopularityKey from './0024-recs-popularity-key.ts';
import * as modelVersion from './0025-model-version.ts';
import * as itemCodenamePrefix from './0026-item-codename-prefix.ts';
import * as eventsNumberedAtCommit from './0027-events-numbered-at-commit.ts';

/**
 * Every migration, in order. Names sort lexically; add new ones at the end and never edit or
 * remove a released one (migrations are forward-only).
 */
const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-content-model': contentModel,
  '0003-content': content,
  '0004-assets': assets,
  '0005-delivery-index': deliveryIndex,
  '0006-sync-changes': syncChanges,
  '0007-outbox-relay': outboxRelay,
  '0008-delivery-values': deliveryValues,
  '0009-management-paging': managementPaging,
  '0010-webhooks': webhooks,
  '0011-recommendations': recommendations,
  '0012-background-tasks': backgroundTasks,
  '0013-recs-entry-count': recsEntryCount,
  '0014-image-cache': imageCache,
  '0015-pending-uploads': pendingUploads,
  '0016-people': people,
  '0017-inventory': inventory,
  '0018-delivery-type-links': deliveryTypeLinks,
  '0019-variant-history': variantHistory,
  '0020-audit-log': auditLog,
  '0022-presence': presence,
  '0023-comments': comments,
  '0024-recs-popularity-key': recsPopularityKey,
  '0025-model-version': modelVersion,
  '0026-item-codename-prefix': itemCodenamePrefix,
  '0027-events-numbered-at-commit': eventsNumberedAtCommit,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
