import type { AuditEntryJson } from './audit-api.ts';

/** How each interface is named to a person. */
export const interfaceNames: Record<string, string> = {
  management_api_v1: 'Management API v1',
  management_api_v2: 'Management API v2',
  editor: 'Editor',
  console: 'Console',
  admin_api: 'Admin API',
  cli: 'CLI',
  mcp: 'MCP',
  task: 'Background task',
  system: 'Lectern',
};

/** "variant.upsert" → "Variant upsert"; "session.sign_in" → "Session sign in". */
export function actionLabel(action: string): string {
  const text = action.replace(/[._]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function actorLabel(entry: AuditEntryJson, emails: ReadonlyMap<string, string>): string {
  const { actor } = entry;
  const person = actor.user_id === null ? null : (emails.get(actor.user_id) ?? actor.user_id);
  if (actor.type === 'user') return person ?? 'A person';
  if (actor.type === 'key') return person ? `${person} (API key)` : 'API key';
  if (actor.type === 'operator') return 'Operator';
  return 'Lectern';
}

function objectLabel(entry: AuditEntryJson): string {
  const { object } = entry;
  const name = object.codename ?? object.id ?? '';
  const language = object.language?.codename ? ` (${object.language.codename})` : '';
  return `${object.kind.replace(/_/g, ' ')} ${name}${language}`.trim();
}

/** The summary in a few words: elements changed, the step's old → new, roles, what else changed. */
function detailsOf(entry: AuditEntryJson): string {
  const s = entry.summary;
  const parts: string[] = [];
  const changed = s['changed_elements'];
  if (Array.isArray(changed) && changed.length > 0)
    parts.push(`${changed.length} ${changed.length === 1 ? 'element' : 'elements'} changed`);
  const step = s['step'] as { from?: string; to?: string } | undefined;
  if (step?.from && step.to) parts.push('workflow step changed');
  const roles = s['roles'];
  if (roles && typeof roles === 'object' && 'to' in roles) parts.push('roles changed');
  if (typeof s['other_change_count'] === 'number') parts.push(`${s['other_change_count']} other change(s)`);
  if (typeof s['method'] === 'string') parts.push(`by ${s['method'].replace('_', ' ')}`);
  if (typeof s['reason'] === 'string') parts.push(s['reason'].replace(/_/g, ' '));
  return parts.join('; ');
}

/** The log's entries as a table: time, person, interface, action, object, details. */
export function AuditTable({
  entries,
  emails,
}: {
  entries: readonly AuditEntryJson[];
  emails: ReadonlyMap<string, string>;
}) {
  const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <div className="audit-table-wrap">
      <table className="audit-table">
        <caption className="visually-hidden">Audit log entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Person</th>
            <th scope="col">Through</th>
            <th scope="col">Action</th>
            <th scope="col">Object</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>
                <time dateTime={e.occurred_at}>{time.format(new Date(e.occurred_at))}</time>
              </td>
              <td>{actorLabel(e, emails)}</td>
              <td>{interfaceNames[e.interface] ?? e.interface}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>{objectLabel(e)}</td>
              <td>{detailsOf(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
