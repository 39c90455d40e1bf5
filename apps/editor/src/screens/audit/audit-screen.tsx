import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { useSession } from '../../api/session.ts';
import { useUsers } from '../../workflow/workflow-api.ts';
import { auditExportUrl, useAuditPage } from './audit-api.ts';
import { AuditTable } from './audit-table.tsx';
import { auditQuery, parseAuditView, serializeAuditView, type AuditView } from './audit-url.ts';
import '../../styles/audit.css';

/** Whether the person may read the project's audit log: project managers (manage environment settings). */
export function canReadAuditLog(permissions: readonly string[] | undefined): boolean {
  return permissions?.includes('manage_environment') ?? false;
}

/** The object kinds the Action filter offers (any action on them); an exact action can be typed in the URL. */
const actionChoices: [value: string, label: string][] = [
  ['', 'All actions'],
  ['variant.', 'Content item variants'],
  ['item.', 'Content items'],
  ['asset.', 'Assets'],
  ['content_type.', 'Content types'],
  ['snippet.', 'Content type snippets'],
  ['taxonomy.', 'Taxonomies'],
  ['language.', 'Languages'],
  ['workflow.', 'Workflows'],
  ['collection.', 'Collections'],
  ['user.', 'Users and roles'],
  ['api_key.', 'API keys'],
  ['webhook.', 'Webhooks'],
  ['person_link.', 'Invitations and password resets'],
];

/**
 * "Audit log" (`/p/:projectId/:language/audit-log`, issue 31): who changed what in the project,
 * newest first, 100 entries a page, filtered by person, action, object and days. The filters live
 * in the URL; "Export" downloads the same entries as JSON lines. For project managers; others get
 * the server's refusal.
 */
export function AuditScreen() {
  const { projectId = '' } = useParams<{ projectId: string }>();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const view = useMemo(() => parseAuditView(search), [search]);
  const query = auditQuery(view);
  const session = useSession();
  const users = useUsers(projectId);
  const emails = useMemo(() => new Map((users.data ?? []).map((u) => [u.id, u.email])), [users.data]);
  const permissions = session.data?.projects.find((p) => p.id === projectId)?.permissions;

  const [draft, setDraft] = useState<AuditView>(view);
  useEffect(() => setDraft(view), [search]);
  const [pages, setPages] = useState<{ query: string; tokens: (string | null)[] }>({ query, tokens: [null] });
  const tokens = pages.query === query ? pages.tokens : [null];
  const token = tokens[tokens.length - 1] ?? null;
  const page = useAuditPage(projectId, query, token);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = serializeAuditView(draft);
    navigate(`${location}${next ? `?${next}` : ''}`);
  };
  const field = (name: keyof AuditView) => ({
    id: `audit-${name}`,
    value: draft[name],
    onChange: (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [name]: e.currentTarget.value }),
  });

  if (session.data && !canReadAuditLog(permissions))
    return (
      <main className="audit" aria-labelledby="audit-heading">
        <h1 id="audit-heading">Audit log</h1>
        <p role="alert">Only project managers can see the audit log.</p>
      </main>
    );

  const entries = page.data?.entries ?? [];
  return (
    <main className="audit" aria-labelledby="audit-heading">
      <div className="audit-head">
        <h1 id="audit-heading">Audit log</h1>
        <a className="button" href={auditExportUrl(projectId, query)} download="audit-log.jsonl">
          Export (JSON lines)
        </a>
      </div>
      <form className="audit-filters" aria-label="Filter the audit log" onSubmit={apply}>
        <p>
          <label htmlFor="audit-person">Person</label>
          <select {...field('person')}>
            <option value="">Everyone</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label htmlFor="audit-action">Action</label>
          <select {...field('action')}>
            {actionChoices.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
            {draft.action && !actionChoices.some(([v]) => v === draft.action) && (
              <option value={draft.action}>{draft.action}</option>
            )}
          </select>
        </p>
        <p>
          <label htmlFor="audit-object">Object ID</label>
          <input {...field('object')} type="text" spellCheck={false} placeholder="e.g. an item's ID" />
        </p>
        <p>
          <label htmlFor="audit-from">From</label>
          <input {...field('from')} type="date" />
        </p>
        <p>
          <label htmlFor="audit-to">To</label>
          <input {...field('to')} type="date" />
        </p>
        <p className="audit-apply">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
        </p>
      </form>
      <p className="audit-status" role="status">
        {page.isPending
          ? 'Loading…'
          : page.isError
            ? `The audit log could not be loaded: ${page.error.message}`
            : entries.length === 0
              ? 'No entries match these filters.'
              : `Showing ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}, newest first (page ${tokens.length}).`}
      </p>
      {entries.length > 0 && <AuditTable entries={entries} emails={emails} />}
      <nav className="audit-paging" aria-label="Pages">
        <button
          type="button"
          className="button"
          disabled={tokens.length <= 1}
          onClick={() => setPages({ query, tokens: tokens.slice(0, -1) })}
        >
          Newer entries
        </button>
        <button
          type="button"
          className="button"
          disabled={!page.data?.continuationToken}
          onClick={() => setPages({ query, tokens: [...tokens, page.data?.continuationToken ?? null] })}
        >
          Older entries
        </button>
      </nav>
    </main>
  );
}
