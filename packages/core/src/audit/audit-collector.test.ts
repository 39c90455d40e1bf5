import { describe, expect, it } from 'vitest';
import { createAuditCollector } from './audit-collector.ts';
import { fixedAuditScope } from './audit-context.ts';
import { auditObject } from './audit-entry.ts';
import type { NewChangeEvent } from '../domain/change-event.ts';

const at = new Date('2026-11-27T12:00:00Z');
const now = new Date('2026-11-27T12:00:01Z');
const p = 'p1';

function variantEvent(channel: NewChangeEvent['channel'], extra: Record<string, unknown> = {}): NewChangeEvent {
  return {
    objectKind: 'variant',
    operation: 'publish',
    objectId: 'item-1',
    channel,
    payload: { item_codename: 'my_article', language_id: 'l1', language_codename: 'en', ...extra },
  };
}

describe('the audit collector of a transaction', () => {
  it('leaves the step out when it did not move', () => {
    const c = createAuditCollector();
    c.noteEvents(p, [variantEvent('delivery_preview', { step_id: 'draft', previous_step_id: 'draft' })], at);
    expect(c.rows(now, undefined)[0]?.summary).toEqual({});
  });

  it('makes nothing of a transaction that changed nothing', () => {
    expect(createAuditCollector().rows(now, undefined)).toEqual([]);
  });

  it('makes one entry of the events of one change, with the step it moved', () => {
    const c = createAuditCollector();
    c.noteEvents(p, [variantEvent('delivery_production', { step_id: 'pub', previous_step_id: 'draft' })], at);
    c.noteEvents(p, [variantEvent('delivery_preview', { step_id: 'pub', previous_step_id: 'draft' })], at);
    c.describe({ changed_elements: ['e1'] });
    const rows = c.rows(now, fixedAuditScope({ via: 'mcp', actor: { type: 'operator' }, requestId: 'r' }));
    expect(rows).toEqual([
      {
        projectId: p,
        occurredAt: at,
        actor: { type: 'operator', userId: null, keyId: null },
        via: 'mcp',
        requestId: 'r',
        action: 'variant.publish',
        object: { kind: 'variant', id: 'item-1', codename: 'my_article', languageId: 'l1', languageCodename: 'en' },
        summary: {
          step: { from: 'draft', to: 'pub' },
          changed_elements: ['e1'],
        },
      },
    ]);
  });

  it('names the other objects of a bulk change, and counts them', () => {
    const c = createAuditCollector();
    const others = Array.from({ length: 25 }, (_, i) => ({
      objectKind: 'collection',
      operation: 'update',
      objectId: `c${i}`,
      channel: 'management' as const,
      payload: { codename: `c${i}` },
    }));
    c.noteEvents(p, others, at);
    const [row] = c.rows(now, undefined);
    expect(row?.action).toBe('collection.update');
    expect(row?.summary['other_change_count']).toBe(24);
    expect(row?.summary['other_changes']).toHaveLength(20);
    expect(row?.via).toBe('system');
  });

  it('takes what an operation noted instead of its events, one entry per note, with their own actor when given', () => {
    const c = createAuditCollector();
    c.noteEvents(p, [variantEvent('delivery_preview')], at);
    c.note({ projectId: p, action: 'api_key.create', object: auditObject('api_key', { id: 'k' }) });
    c.note({
      projectId: null,
      action: 'session.sign_in',
      object: auditObject('session'),
      actor: { type: 'user', userId: 'u', keyId: null },
    });
    const rows = c.rows(now, fixedAuditScope({ via: 'editor', actor: null }));
    expect(rows.map((r) => [r.action, r.actor.type, r.occurredAt])).toEqual([
      ['api_key.create', 'system', now],
      ['session.sign_in', 'user', now],
    ]);
  });
});
