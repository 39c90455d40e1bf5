import { Link } from 'wouter';
import { usePreviewConfiguration, useSpaces } from './pages-data.ts';

/** The "Web Spotlight" navigation entry: shown when a space has a root item or a type has a preview URL. */
export function WebSpotlightNav({
  projectId,
  language,
  section,
}: {
  projectId: string;
  language: string;
  section: string;
}) {
  const spaces = useSpaces(projectId);
  const config = usePreviewConfiguration(projectId);
  const hasRoot = (spaces.data ?? []).some((s) => s.web_spotlight_root_item !== null);
  const hasPreview = (config.data?.preview_url_patterns ?? []).some((p) => p.url_patterns.length > 0);
  if (!hasRoot && !hasPreview) return null;
  return (
    <li>
      <Link href={`/p/${projectId}/${language}/pages`} aria-current={section === 'pages' ? 'page' : undefined}>
        Web Spotlight
      </Link>
    </li>
  );
}
