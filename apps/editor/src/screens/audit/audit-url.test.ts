import { describe, expect, it } from 'vitest';
import { auditQuery, parseAuditView, serializeAuditView } from './audit-url.ts';

describe('the audit log view in the URL', () => {
  it('round-trips the filters and leaves empty ones out', () => {
    const view = parseAuditView('person=u1&action=variant.&from=2026-11-01');
    expect(view).toEqual({ person: 'u1', action: 'variant.', object: '', from: '2026-11-01', to: '' });
    expect(serializeAuditView(view)).toBe('person=u1&action=variant.&from=2026-11-01');
    expect(serializeAuditView(parseAuditView(''))).toBe('');
  });

  it('asks the server for the days in local time, `to` including its whole day', () => {
    const q = new URLSearchParams(auditQuery(parseAuditView('person=u1&object=i1&from=2026-11-01&to=2026-11-02')));
    expect(q.get('user_id')).toBe('u1');
    expect(q.get('object_id')).toBe('i1');
    expect(q.get('from')).toBe(new Date(2026, 10, 1).toISOString());
    expect(q.get('to')).toBe(new Date(2026, 10, 3).toISOString());
    expect(auditQuery(parseAuditView('from=not-a-day'))).toBe('');
  });
});
