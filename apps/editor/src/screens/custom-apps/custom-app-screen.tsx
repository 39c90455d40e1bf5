import { useParams } from 'wouter';
import { useSession } from '../../api/session.ts';
import '../../styles/custom-apps.css';
import { parseAppConfig } from './custom-app-protocol.ts';
import { CustomAppFrame } from './custom-app-frame.tsx';
import { mayUse, useCustomApps, useMyRoles } from './custom-apps-data.ts';

/**
 * A custom app on a page of its own: /p/{projectId}/{language}/apps/{appId} (the navigation lists
 * the full-screen apps the person's roles may use). Its context is the shared one with
 * `currentPage: "other"`.
 */
export function CustomAppScreen() {
  const { projectId, appId } = useParams<{ projectId: string; language: string; appId: string }>();
  const apps = useCustomApps(projectId);
  const mine = useMyRoles(projectId);
  const session = useSession();
  if (apps.isError)
    return (
      <main className="custom-app-view">
        <h1>Custom app</h1>
        <p role="alert">{apps.error.message}</p>
      </main>
    );
  if (!apps.data || !mine || !session.data)
    return (
      <main className="custom-app-view" aria-busy="true">
        <h1>Custom app</h1>
      </main>
    );
  const app = apps.data.find((a) => a.id === appId || a.codename === appId);
  if (!app || !mayUse(app, mine))
    return (
      <main className="custom-app-view">
        <h1>Custom app not found</h1>
        <p>There is no custom app {appId} here, or your roles do not let you use it.</p>
      </main>
    );
  return (
    <main className="custom-app-view">
      <h1 className="custom-app-title">{app.name}</h1>
      <CustomAppFrame
        sourceUrl={app.source_url}
        title={app.name}
        context={{
          environmentId: projectId,
          userId: session.data.user.id,
          userEmail: session.data.user.email,
          userRoles: mine.map((r) => ({ id: r.id, codename: r.codename ?? null })),
          appConfig: parseAppConfig(app.config),
          path: window.location.pathname,
          pageTitle: app.name,
          currentPage: 'other',
        }}
      />
    </main>
  );
}
