import type { ReactNode } from 'react';
import { Link, useLocation, useRoute, useSearch } from 'wouter';
import { useLiveProject } from '../api/live.ts';
import { useLanguages } from '../api/project-model.ts';
import { useSession, useSessionActions } from '../api/session.ts';
import { CustomAppsNav } from '../screens/custom-apps/custom-apps-nav.tsx';
import { WebSpotlightNav } from '../screens/pages/web-spotlight-nav.tsx';
import '../styles/app-frame.css';

/** The path of the same screen in another language: `/p/{project}/{language}/…` with the language replaced. */
export function inLanguage(location: string, codename: string): string {
  return location.replace(/^(\/p\/[^/]+\/)[^/]+/, `$1${encodeURIComponent(codename)}`);
}

/**
 * The frame of a project's screens (`/p/:projectId/:language/…`): a header (banner landmark) with
 * the project's name, the language switcher, the navigation ("Content", "Assets") and the person
 * with "Sign out" and "Sign out everywhere". The screen inside renders the page's one `<main>`.
 * While it is shown, the project's change stream is open (changes elsewhere refresh the screen).
 */
export function AppFrame({ children }: { children: ReactNode }) {
  const [, params] = useRoute<{ projectId: string; language: string }>('/p/:projectId/:language/*?');
  const projectId = params?.projectId ?? '';
  const language = params?.language ?? '';
  const session = useSession();
  const languages = useLanguages(projectId);
  const { signOut } = useSessionActions();
  const [location, navigate] = useLocation();
  const search = useSearch();
  useLiveProject(projectId);

  const project = session.data?.projects.find((p) => p.id === projectId);
  const section = location.split('/')[4] ?? '';
  const leave = async (isEverywhere: boolean) => {
    await signOut({ isEverywhere }).catch(() => undefined);
    navigate('/sign-in', { replace: true });
  };
  const active = (languages.data ?? []).filter((l) => l.is_active || l.codename === language);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <p className="app-project">
          <Link href="/">{project?.name ?? 'Project'}</Link>
        </p>
        <nav className="app-nav" aria-label="Project">
          <ul>
            <li>
              <Link
                href={`/p/${projectId}/${language}/content`}
                aria-current={section === 'content' || section === 'items' ? 'page' : undefined}
              >
                Content
              </Link>
            </li>
            <li>
              <Link
                href={`/p/${projectId}/${language}/assets`}
                aria-current={section === 'assets' ? 'page' : undefined}
              >
                Assets
              </Link>
            </li>
            <li>
              <Link
                href={`/p/${projectId}/${language}/model/types`}
                aria-current={section === 'model' ? 'page' : undefined}
              >
                Content model
              </Link>
            </li>
            <WebSpotlightNav projectId={projectId} language={language} section={section} />
            <CustomAppsNav projectId={projectId} language={language} section={section} />
            {project?.permissions.includes('manage_environment') && (
              <li>
                <Link
                  href={`/p/${projectId}/${language}/audit-log`}
                  aria-current={section === 'audit-log' ? 'page' : undefined}
                >
                  Audit log
                </Link>
              </li>
            )}
          </ul>
        </nav>
        <p className="app-language">
          <label htmlFor="app-language">Language</label>
          <select
            id="app-language"
            value={language}
            onChange={(e) => navigate(`${inLanguage(location, e.currentTarget.value)}${search ? `?${search}` : ''}`)}
          >
            {active.length === 0 && <option value={language}>{language}</option>}
            {active.map((l) => (
              <option key={l.id} value={l.codename}>
                {l.name}
              </option>
            ))}
          </select>
        </p>
        <div className="app-person">
          <span className="app-person-email">{session.data?.user.email}</span>
          <button type="button" className="button" onClick={() => void leave(false)}>
            Sign out
          </button>
          <button type="button" className="button" onClick={() => void leave(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      <div id="main" className="app-content">
        {children}
      </div>
    </>
  );
}
