import type { ChangeEvent } from '@lectern/core';
import { describe, expect, it } from 'vitest';
import { notificationKinds } from './event-map.ts';

const event = (
  objectKind: string,
  operation: string,
  channel: ChangeEvent['channel'],
  payload: Record<string, unknown> = {},
): ChangeEvent => ({
  projectId: '00000000-0000-0000-0000-000000000001',
  seq: 1,
  occurredAt: new Date(0),
  objectKind,
  operation,
  objectId: '00000000-0000-0000-0000-000000000002',
  channel,
  payload,
});
const kinds = (e: ChangeEvent) => notificationKinds(e).map((k) => `${k.objectType}/${k.action}/${k.slot}`);

describe('notificationKinds', () => {
  it('maps publishing to published in the published slot and a step move in the preview slot', () => {
    expect(kinds(event('variant', 'publish', 'delivery_production'))).toEqual(['content_item/published/published']);
    expect(kinds(event('variant', 'publish', 'delivery_preview'))).toEqual([
      'content_item/workflow_step_changed/preview',
    ]);
    expect(kinds(event('variant', 'unpublish', 'delivery_production'))).toEqual(['content_item/unpublished/published']);
  });

  it('maps variant edits to the preview slot only', () => {
    expect(kinds(event('variant', 'create', 'delivery_preview'))).toEqual(['content_item/created/preview']);
    expect(kinds(event('variant', 'upsert', 'delivery_preview'))).toEqual(['content_item/changed/preview']);
    expect(kinds(event('variant', 'delete', 'delivery_preview'))).toEqual(['content_item/deleted/preview']);
    expect(kinds(event('variant', 'upsert', 'management'))).toEqual([]);
  });

  it('maps item metadata and assets per slot, and model objects to both slots', () => {
    expect(kinds(event('item', 'update', 'delivery_production'))).toEqual(['content_item/metadata_changed/published']);
    expect(kinds(event('asset', 'delete', 'delivery_preview'))).toEqual(['asset/deleted/preview']);
    expect(kinds(event('content_type', 'update', 'management'))).toEqual([
      'content_type/changed/published',
      'content_type/changed/preview',
    ]);
    expect(kinds(event('taxonomy', 'create', 'management'))).toEqual([
      'taxonomy/created/published',
      'taxonomy/created/preview',
    ]);
  });

  it('notifies nothing for objects a webhook cannot subscribe to', () => {
    for (const kind of ['snippet', 'collection', 'workflow', 'space', 'project', 'asset_folder'])
      expect(kinds(event(kind, 'update', 'management'))).toEqual([]);
  });

  // Kontent.ai's webhooks reference, "Webhook triggers and events" (Learn's webhooks page,
  // /work/shared/reference/fixtures/delivery/Kontent-ai-Learn+learn-mcp-server/data/search-records.json
  // codename `webhooks_ea`): one change may stand for several actions, each in both slots.
  it('sends the actions an update names, in both slots, and the old action for an event naming none', () => {
    const update = (kind: string, actions?: unknown) =>
      event(kind, 'update', 'management', actions === undefined ? {} : { webhook_actions: actions });
    expect(kinds(update('taxonomy', ['term_created', 'terms_moved']))).toEqual([
      'taxonomy/term_created/published',
      'taxonomy/term_created/preview',
      'taxonomy/terms_moved/published',
      'taxonomy/terms_moved/preview',
    ]);
    expect(kinds(update('taxonomy'))).toEqual([
      'taxonomy/metadata_changed/published',
      'taxonomy/metadata_changed/preview',
    ]);
    expect(kinds(update('taxonomy', []))).toEqual([]);
    expect(kinds(update('language', ['deleted']))).toEqual(['language/deleted/published', 'language/deleted/preview']);
    // An action of another object type is not sent.
    expect(kinds(update('language', ['term_created', 'created']))).toEqual([
      'language/created/published',
      'language/created/preview',
    ]);
    expect(kinds(event('asset', 'update', 'delivery_preview', { webhook_actions: ['changed'] }))).toEqual([
      'asset/changed/preview',
    ]);
  });

  it('sends nothing for a new item (its first variant is created) and a delete of its variants for a deleted one', () => {
    expect(kinds(event('item', 'create', 'delivery_preview'))).toEqual([]);
    expect(kinds(event('item', 'delete', 'delivery_preview'))).toEqual(['content_item/deleted/preview']);
    expect(kinds(event('item', 'delete', 'delivery_production'))).toEqual(['content_item/unpublished/published']);
    expect(kinds(event('item', 'metadata_changed', 'delivery_preview'))).toEqual([
      'content_item/metadata_changed/preview',
    ]);
  });
});
