import { useId, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import '../../styles/model.css';

/** The areas of "Content model", in Kontent.ai's order, with their path under `/p/:projectId/:language/model/`. */
export const modelAreas = [
  { path: 'types', label: 'Content types' },
  { path: 'snippets', label: 'Content type snippets' },
  { path: 'taxonomies', label: 'Taxonomies' },
  { path: 'collections', label: 'Collections' },
  { path: 'spaces', label: 'Spaces' },
  { path: 'languages', label: 'Languages' },
  { path: 'workflows', label: 'Workflows' },
  { path: 'preview-urls', label: 'Preview URLs' },
] as const;

export type ModelArea = (typeof modelAreas)[number]['path'];

/** The path of a model area (and anything below it) in the current project and language. */
export function modelPath(projectId: string, language: string, area: ModelArea, rest = ''): string {
  return `/p/${projectId}/${language}/model/${area}${rest}`;
}

/**
 * The sub-navigation of the Content model: one link per area, the current one marked
 * `aria-current="page"`. Shared by every model screen (model-rest's areas import it from here).
 */
export function ModelNav() {
  const { projectId = '', language = '' } = useParams<{ projectId: string; language: string }>();
  const [location] = useLocation();
  const current = location.split('/')[5] ?? '';
  return (
    <nav className="model-nav" aria-label="Content model">
      <ul>
        {modelAreas.map((area) => (
          <li key={area.path}>
            <Link
              href={modelPath(projectId, language, area.path)}
              aria-current={current === area.path ? 'page' : undefined}
            >
              {area.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * A model screen: the sub-navigation beside the page's one `<main>`, headed by `title` (the
 * page's `<h1>`) with `actions` (buttons) beside it, then `children`.
 */
export function ModelLayout({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <div className="model-layout">
      <ModelNav />
      <main className="model-main" aria-labelledby={titleId}>
        <header className="model-header">
          <h1 id={titleId}>{title}</h1>
          {actions ? <div className="model-actions">{actions}</div> : null}
        </header>
        {children}
      </main>
    </div>
  );
}
