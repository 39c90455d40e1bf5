import { useEffect, useMemo, useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { useCollections, useContentTypes, useLanguages, useWorkflows, languageOf } from '../../api/project-model.ts';
import { canManageContent, useSession } from '../../api/session.ts';
import { useInventoryPage } from './inventory-data.ts';
import { InventoryFilters } from './inventory-filters.tsx';
import { InventoryTable, stepNames, type InventoryLookups } from './inventory-table.tsx';
import { filterBody, parseView, serializeView, type InventoryView, type SortColumn } from './inventory-url.ts';
import { CreateItemDialog } from './create-item-dialog.tsx';
import '../../styles/inventory.css';
import { useUsers } from '../../workflow/workflow-api.ts';

/** How long the search waits after the last key before it asks the server. */
const searchDebounceMs = 300;

/**
 * The Content inventory (`/p/:projectId/:language/content`): every item with its variant in the
 * chosen language, filtered, searched and sorted by the server (`items-with-variant/filter`), a
 * page of 50 at a time. The view lives in the URL; the pages seen are a stack of continuation
 * tokens, so Previous goes back without asking again for what was shown.
 */
export function InventoryScreen() {
  const { projectId = '', language: languageCodename = '' } = useParams<{ projectId: string; language: string }>();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const view = useMemo(() => parseView(search), [search]);
  const viewKey = serializeView(view);

  const session = useSession();
  const languages = useLanguages(projectId);
  const types = useContentTypes(projectId);
  const collections = useCollections(projectId);
  const workflows = useWorkflows(projectId);
  const { language } = languageOf(languages.data, languageCodename);

  const setView = (next: InventoryView, options: { replace?: boolean } = {}) => {
    const query = serializeView(next);
    navigate(`${location}${query ? `?${query}` : ''}`, { replace: options.replace ?? false });
  };

  // The search box is the person's; the URL follows it once they pause.
  const [searchText, setSearchText] = useState(view.search);
  useEffect(() => setSearchText(view.search), [view.search]);
  useEffect(() => {
    if (searchText === view.search) return;
    const timer = setTimeout(() => setView({ ...view, search: searchText }, { replace: true }), searchDebounceMs);
    return () => clearTimeout(timer);
    // Only the typed text restarts the wait (the view it extends is read when it ends).
  }, [searchText]);

  const [pages, setPages] = useState<{ key: string; tokens: (string | null)[] }>({ key: viewKey, tokens: [null] });
  const tokens = pages.key === viewKey ? pages.tokens : [null];
  const continuation = tokens[tokens.length - 1] ?? null;

  // The language's codename is what the filter names; whether it is the default decides whether
  // untranslated items are asked for (inventory-url.ts).
  const body =
    session.data && language
      ? filterBody(view, { languageCodename, isDefaultLanguage: language.is_default, userId: session.data.user.id })
      : null;
  const page = useInventoryPage({ projectId, body, continuation });
  const users = useUsers(projectId);

  const lookups: InventoryLookups = useMemo(
    () => ({
      types: new Map((types.data ?? []).map((t) => [t.id, t])),
      collections: new Map((collections.data ?? []).map((c) => [c.id, c])),
      steps: stepNames(workflows.data),
      userId: session.data?.user.id ?? '',
      userEmails: new Map((users.data ?? []).map((u) => [u.id, u.email])),
    }),
    [types.data, collections.data, workflows.data, session.data, users.data],
  );
  const [isCreating, setCreating] = useState(false);

  if (languages.isSuccess && !language)
    return (
      <main className="inventory">
        <h1>Content inventory</h1>
        <p role="alert">This project has no language with the codename “{languageCodename}”.</p>
      </main>
    );

  const onSort = (column: SortColumn) => {
    const direction =
      view.sort === column ? (view.direction === 'asc' ? 'desc' : 'asc') : column === 'name' ? 'asc' : 'desc';
    setView({ ...view, sort: column, direction });
  };
  const rows = page.data?.rows ?? [];
  const pageNumber = tokens.length;
  const itemHref = (itemId: string) => `/p/${projectId}/${languageCodename}/items/${itemId}`;

  return (
    <main className="inventory" aria-labelledby="inventory-heading">
      <div className="inventory-head">
        <h1 id="inventory-heading">Content inventory</h1>
        {canManageContent(session.data, projectId) && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => setCreating(true)}
            disabled={!language || !types.data}
          >
            Create new
          </button>
        )}
      </div>
      <div className="inventory-tools">
        <form role="search" className="inventory-search" onSubmit={(e) => e.preventDefault()}>
          <label htmlFor="inventory-search">Search by name</label>
          <input
            id="inventory-search"
            type="search"
            value={searchText}
            onChange={(e) => setSearchText(e.currentTarget.value)}
            maxLength={200}
            autoComplete="off"
          />
        </form>
        <InventoryFilters
          view={view}
          types={types.data ?? []}
          collections={collections.data ?? []}
          workflows={workflows.data ?? []}
          onChange={(next) => setView(next)}
        />
      </div>
      <p className="inventory-status" role="status">
        {page.isError
          ? `The items could not be loaded: ${page.error.message}`
          : page.isPending || page.isPlaceholderData
            ? `Loading page ${pageNumber}…`
            : `Page ${pageNumber}: ${rows.length} ${rows.length === 1 ? 'item' : 'items'}${page.data?.next ? '' : ' (last page)'}`}
      </p>
      <InventoryTable
        rows={rows}
        lookups={lookups}
        sort={view.sort}
        direction={view.direction}
        onSort={onSort}
        itemHref={itemHref}
        isBusy={page.isFetching}
      />
      <nav className="inventory-paging" aria-label="Pages">
        <button
          type="button"
          className="button"
          disabled={pageNumber === 1}
          onClick={() => setPages({ key: viewKey, tokens: tokens.slice(0, -1) })}
        >
          Previous page
        </button>
        <span>Page {pageNumber}</span>
        <button
          type="button"
          className="button"
          disabled={!page.data?.next || page.isPlaceholderData}
          onClick={() => setPages({ key: viewKey, tokens: [...tokens, page.data?.next ?? null] })}
        >
          Next page
        </button>
      </nav>
      {language && canManageContent(session.data, projectId) && (
        <CreateItemDialog
          projectId={projectId}
          languageId={language.id}
          types={types.data ?? []}
          collections={collections.data ?? []}
          isOpen={isCreating}
          onClose={() => setCreating(false)}
          onCreated={(itemId) => {
            setCreating(false);
            navigate(itemHref(itemId));
          }}
        />
      )}
    </main>
  );
}
