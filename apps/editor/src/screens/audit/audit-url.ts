/**
 * The audit log's filters as they live in the URL's query (a view can be bookmarked, Back restores
 * it) and as the server's query parameters (`GET …/audit-log`, docs/audit-log.md).
 */
export interface AuditView {
  /** A user id: the person's entries (signed in, or through their management key). */
  readonly person: string;
  /** An action (`variant.upsert`) or an object kind followed by a dot (`variant.`). */
  readonly action: string;
  /** An object's id (an item's id for its variants). */
  readonly object: string;
  /** `YYYY-MM-DD`, the day's start in the person's time zone; `to` inclusive of its day. */
  readonly from: string;
  readonly to: string;
}

const keys = ['person', 'action', 'object', 'from', 'to'] as const;

export function parseAuditView(search: string): AuditView {
  const q = new URLSearchParams(search);
  return Object.fromEntries(keys.map((k) => [k, q.get(k) ?? ''])) as unknown as AuditView;
}

export function serializeAuditView(view: AuditView): string {
  const q = new URLSearchParams();
  for (const k of keys) if (view[k] !== '') q.set(k, view[k]);
  return q.toString();
}

function dayStart(day: string, offsetDays = 0): string | null {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return null;
  return new Date(y, m - 1, d + offsetDays).toISOString();
}

/** The query string of the server's list and export for this view. */
export function auditQuery(view: AuditView): string {
  const q = new URLSearchParams();
  if (view.person) q.set('user_id', view.person);
  if (view.action) q.set('action', view.action);
  if (view.object) q.set('object_id', view.object);
  const from = view.from ? dayStart(view.from) : null;
  const to = view.to ? dayStart(view.to, 1) : null;
  if (from) q.set('from', from);
  if (to) q.set('to', to);
  return q.toString();
}
