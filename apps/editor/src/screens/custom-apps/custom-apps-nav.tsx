import { Link } from 'wouter';
import { useVisibleApps } from './custom-apps-data.ts';

/** Navigation entries of the full-screen custom apps the person's roles may use. */
export function CustomAppsNav({
  projectId,
  language,
  section,
}: {
  projectId: string;
  language: string;
  section: string;
}) {
  const apps = useVisibleApps(projectId, 'fullScreen');
  return (
    <>
      {apps.map((app) => (
        <li key={app.id}>
          <Link
            href={`/p/${projectId}/${language}/apps/${app.id}`}
            aria-current={
              section === 'apps' && window.location.pathname.endsWith(`/apps/${app.id}`) ? 'page' : undefined
            }
          >
            {app.name}
          </Link>
        </li>
      ))}
    </>
  );
}
