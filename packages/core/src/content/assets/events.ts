import type { NewChangeEvent } from '../../domain/change-event.ts';
import { assetActions, webhookActionsField } from '../../webhooks/change-actions.ts';
import type { AssetRecord } from './asset-record.ts';

/**
 * The change events of an asset write. Assets are served alike on both delivery channels (an
 * asset has no draft or published version), so each write appends two events, one per channel:
 * consumers of one channel then need no special case for assets.
 */
export function assetEvents(
  operation: 'create' | 'update' | 'delete',
  asset: AssetRecord,
  previous?: AssetRecord,
): NewChangeEvent[] {
  const payload = {
    codename: asset.codename,
    ...(asset.externalId === null ? {} : { external_id: asset.externalId }),
    file_id: asset.fileId,
    // An update names the webhook actions it stands for (file replaced: changed, …).
    ...(previous === undefined ? {} : { [webhookActionsField]: assetActions(previous, asset) }),
  };
  return (['delivery_production', 'delivery_preview'] as const).map((channel) => ({
    objectKind: 'asset',
    operation,
    objectId: asset.id,
    channel,
    payload,
  }));
}
