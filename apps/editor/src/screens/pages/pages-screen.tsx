import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Redirect, useParams } from 'wouter';
import { onProjectChange } from '../../api/live.ts';
import { useLanguages } from '../../api/project-model.ts';
import { canManageContent, useSession } from '../../api/session.ts';
import '../../styles/item.css';
import '../../styles/pages.css';
import { EditPanel, type PanelRequest, type PanelValues } from './edit-panel.tsx';
import { PageTree } from './page-tree.tsx';
import { previewOrigin } from '../../api/preview-url.ts';
import { previewOrigins, usePage, usePreviewConfiguration, useSpaces } from './pages-data.ts';
import {
  AddAction,
  addInitialAnswer,
  SmartLinkMessage,
  updateMessageOf,
  type SiteRequest,
} from './smart-link-protocol.ts';
import { useSmartLinkHost } from './use-smart-link-host.ts';

/**
 * Web Spotlight: /p/{projectId}/{language}/pages[/{itemId}]. The page tree of the space's root
 * item beside the page's preview URL in an iframe; the site's smart links open the clicked item
 * in the side panel, its add buttons insert items into linked-items elements, and the panel's
 * unsaved values reach the site as live-preview updates; a saved change refreshes it.
 */
export function PagesScreen() {
  const params = useParams<{ projectId: string; language: string; itemId?: string }>();
  const { projectId, language: languageCodename } = params;
  const spaces = useSpaces(projectId);
  const languages = useLanguages(projectId);
  const [spaceId, setSpaceId] = useState<string | null>(null);
  const rooted = (spaces.data ?? []).filter((s) => s.web_spotlight_root_item !== null);
  const space = rooted.find((s) => s.id === spaceId) ?? rooted[0] ?? null;
  const rootId = space?.web_spotlight_root_item?.id ?? null;
  const language = languages.data?.find((l) => l.codename === languageCodename) ?? null;

  if (spaces.isError || languages.isError)
    return (
      <main className="pages-view">
        <h1>Web Spotlight</h1>
        <p role="alert">{(spaces.error ?? languages.error)?.message}</p>
      </main>
    );
  if (!spaces.data || !languages.data)
    return (
      <main className="pages-view" aria-busy="true">
        <h1>Web Spotlight</h1>
      </main>
    );
  if (!rootId || !language)
    return (
      <main className="pages-view">
        <h1>Web Spotlight</h1>
        <p>
          {language
            ? 'No space has a root item yet. Set a space’s root item (Environment settings, Spaces) to see its pages here.'
            : `The project has no language with the codename ${languageCodename}.`}
        </p>
      </main>
    );
  if (!params.itemId) return <Redirect to={`/p/${projectId}/${languageCodename}/pages/${rootId}`} replace />;
  return (
    <main className="pages-view">
      <h1 className="visually-hidden">Web Spotlight</h1>
      <div className="pages-sidebar">
        {rooted.length > 1 ? (
          <p>
            <label htmlFor="pages-space">Space</label>
            <select id="pages-space" value={space?.id} onChange={(e) => setSpaceId(e.currentTarget.value)}>
              {rooted.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </p>
        ) : null}
        <PageTree projectId={projectId} language={language} rootId={rootId} selectedId={params.itemId} />
      </div>
      <PagePreview
        key={`${params.itemId}/${language.id}`}
        projectId={projectId}
        language={{ id: language.id, codename: language.codename }}
        itemId={params.itemId}
      />
    </main>
  );
}

function PagePreview(props: { projectId: string; language: { id: string; codename: string }; itemId: string }) {
  const { projectId, language, itemId } = props;
  const page = usePage(projectId, itemId, language);
  const config = usePreviewConfiguration(projectId);
  const session = useSession();
  const canEdit = canManageContent(session.data, projectId);
  const frame = useRef<HTMLIFrameElement>(null);
  const [panel, setPanel] = useState<PanelRequest | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const seq = useRef(0);
  const urls = useMemo(() => page.data?.previewUrls ?? [], [page.data]);
  const url = urls.find((u) => u.url !== null)?.url ?? null;
  const origins = useMemo(() => previewOrigins(config.data, urls), [config.data, urls]);
  const defsOf = useRef(new Map<string, PanelValues>());
  const [currentUrl, setCurrentUrl] = useState<string | null>(null);
  const sendUpdate = useRef<(v: PanelValues) => void>(() => undefined);

  const onRequest = useCallback(
    (request: SiteRequest, reply: (type: string, data: unknown) => void) => {
      if ('projectId' in request && request.projectId && request.projectId !== projectId) {
        setNotice('The site links to another project: its edit buttons do nothing here.');
        return;
      }
      if (request.kind === 'initialized') {
        for (const v of defsOf.current.values()) if (v.isDirty) sendUpdate.current(v);
        return;
      }
      seq.current += 1;
      if (request.kind === 'current-url') {
        // Only a URL of a preview origin becomes the "open in a new tab" link.
        const o = previewOrigin(request.url);
        if (o && origins.includes(o)) setCurrentUrl(request.url);
      } else if (request.kind === 'edit')
        setPanel({ kind: 'edit', itemId: request.itemId, elementCodename: request.elementCodename, seq: seq.current });
      else if (request.kind === 'add-initial') {
        const known = defsOf.current.get(request.itemId) ?? (request.itemId === itemId ? pageValues(page.data) : null);
        const def = known?.defs.find((d) => d.codename === request.elementCodename);
        const variant = request.itemId === itemId ? page.data?.variant : null;
        const step = variant?.workflow?.step_identifier.id ?? variant?.workflow_step?.id;
        reply(SmartLinkMessage.AddInitialResponse, addInitialAnswer(def, canEdit, step === publishedStepId));
      } else if (request.kind === 'add-action') {
        if (request.action === AddAction.CreateComponent) {
          setNotice('Components are added in the item editor: open the rich text element there.');
          setPanel({
            kind: 'edit',
            itemId: request.itemId,
            elementCodename: request.elementCodename,
            seq: seq.current,
          });
        } else
          setPanel({
            kind: 'insert',
            itemId: request.itemId,
            elementCodename: request.elementCodename,
            position: request.insertPosition,
            seq: seq.current,
          });
      }
    },
    [projectId, itemId, canEdit, page.data, origins],
  );
  const host = useSmartLinkHost(frame, origins, onRequest);
  const { send } = host;

  // A change stored anywhere (a save here, a publish, another editor) reloads the site's data.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = onProjectChange((change) => {
      if (change && change.object_kind !== 'item' && change.object_kind !== 'variant') return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const codename = defsOf.current.get(change?.id ?? '')?.item.codename ?? page.data?.item.codename ?? '';
        send(
          SmartLinkMessage.RefreshPreview,
          { projectId, languageCodename: language.codename, updatedItemCodename: codename },
          { metadata: { manualRefresh: false } },
        );
      }, 300);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [send, projectId, language.codename, page.data]);

  const onValues = useCallback((v: PanelValues) => {
    defsOf.current.set(v.item.id, v);
    sendUpdate.current(v);
  }, []);
  sendUpdate.current = (v: PanelValues) =>
    send(
      SmartLinkMessage.UpdatePreview,
      updateMessageOf({
        projectId,
        ...v,
        ctx: { codenameOf: (id) => defsOf.current.get(id)?.item.codename ?? null },
      }),
    );

  const refresh = () =>
    send(
      SmartLinkMessage.RefreshPreview,
      { projectId, languageCodename: language.codename, updatedItemCodename: page.data?.item.codename ?? '' },
      { metadata: { manualRefresh: true } },
    );

  if (page.isError) return <p role="alert">The page could not be read: {page.error?.message}</p>;
  if (!page.data) return <p role="status">Loading the page…</p>;
  const problem = urls.find((u) => u.url === null);
  return (
    <div className="pages-main">
      <div className="pages-toolbar">
        <h2>{page.data.item.name}</h2>
        <button type="button" className="button" onClick={refresh} disabled={!host.isConnected}>
          Refresh preview
        </button>
        {url ? (
          <a className="button" href={currentUrl ?? url} target="_blank" rel="noopener noreferrer">
            Open the preview in a new tab
          </a>
        ) : null}
        <p className="pages-connection" role="status">
          {url ? (host.isConnected ? 'Smart Link connected' : 'Waiting for the site…') : ''}
        </p>
        {notice ? <p role="alert">{notice}</p> : null}
      </div>
      {url ? (
        <iframe
          ref={frame}
          className="pages-frame"
          src={url}
          title={`Preview of ${page.data.item.name}`}
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
        />
      ) : (
        <p className="pages-empty">
          {problem && problem.url === null
            ? `This page has no preview: ${problem.problem}`
            : 'This page’s content type has no preview URL. Set one in Environment settings, Preview URLs.'}
        </p>
      )}
      {panel ? (
        <EditPanel
          key={`${panel.itemId}`}
          projectId={projectId}
          languageCodename={language.codename}
          request={panel}
          onValues={onValues}
          onClose={() => setPanel(null)}
        />
      ) : null}
    </div>
  );
}

/** Kontent.ai's fixed id of the Published step: a published parent's add buttons are disabled. */
const publishedStepId = 'c199950d-99f0-4983-b711-6c4c91624b22';

function pageValues(page: ReturnType<typeof usePage>['data']): PanelValues | null {
  return page
    ? { item: page.item, language: { id: '', codename: '' }, defs: page.defs, values: [], isDirty: false }
    : null;
}
