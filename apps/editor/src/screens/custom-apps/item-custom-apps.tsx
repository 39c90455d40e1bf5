import { useState } from 'react';
import { useSession } from '../../api/session.ts';
import '../../styles/custom-apps.css';
import { parseAppConfig, type PopupDimension } from './custom-app-protocol.ts';
import { CustomAppFrame } from './custom-app-frame.tsx';
import { useMyRoles, useVisibleApps, type CustomAppJson } from './custom-apps-data.ts';

function css(d: PopupDimension, axis: 'vw' | 'vh'): string {
  return d.unit === 'px' ? `${d.value}px` : `${d.value}${axis}`;
}

/**
 * The item editor's custom apps (display mode "dialog"): a button per app the person's roles may
 * use; the app opens in a pop-up at the bottom right (not modal: the item stays editable) with the
 * item editor's context — `currentPage: "itemEditor"`, the item, the language and the form's
 * validation errors by element codename.
 */
export function ItemCustomApps(props: {
  projectId: string;
  itemId: string;
  languageId: string;
  validationErrors: Readonly<Record<string, readonly string[]>>;
}) {
  const apps = useVisibleApps(props.projectId, 'dialog');
  const mine = useMyRoles(props.projectId);
  const session = useSession();
  const [open, setOpen] = useState<CustomAppJson | null>(null);
  const [size, setSize] = useState<{ width: PopupDimension; height: PopupDimension }>({
    width: { unit: 'px', value: 420 },
    height: { unit: 'px', value: 480 },
  });
  if (apps.length === 0 || !mine || !session.data) return null;
  return (
    <div className="item-custom-apps">
      {apps.map((app) => (
        <button
          key={app.id}
          type="button"
          className="button"
          onClick={() => setOpen(app)}
          aria-pressed={open?.id === app.id}
        >
          {app.name}
        </button>
      ))}
      {open ? (
        <section
          className="custom-app-popup"
          role="dialog"
          aria-label={open.name}
          style={{ width: css(size.width, 'vw'), height: css(size.height, 'vh') }}
        >
          <header className="custom-app-popup-header">
            <h2>{open.name}</h2>
            <button type="button" className="button" onClick={() => setOpen(null)}>
              Close
            </button>
          </header>
          <CustomAppFrame
            key={open.id}
            sourceUrl={open.source_url}
            title={open.name}
            className="custom-app-popup-frame"
            onResize={setSize}
            context={{
              environmentId: props.projectId,
              userId: session.data.user.id,
              userEmail: session.data.user.email,
              userRoles: mine.map((r) => ({ id: r.id, codename: r.codename ?? null })),
              appConfig: parseAppConfig(open.config),
              path: window.location.pathname,
              pageTitle: document.title,
              currentPage: 'itemEditor',
              contentItemId: props.itemId,
              languageId: props.languageId,
              validationErrors: props.validationErrors,
            }}
          />
        </section>
      ) : null}
    </div>
  );
}
