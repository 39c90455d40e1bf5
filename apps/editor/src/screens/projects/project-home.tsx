import { Redirect, useParams } from 'wouter';
import { useLanguages } from '../../api/project-model.ts';

/** `/p/:projectId`: the Content inventory in the project's default language. */
export function ProjectHome() {
  const { projectId = '' } = useParams<{ projectId: string }>();
  const languages = useLanguages(projectId);
  if (languages.isError)
    return (
      <main className="page-narrow">
        <h1>This project cannot be opened</h1>
        <p role="alert">{languages.error.message}</p>
      </main>
    );
  const language = languages.data?.find((l) => l.is_default) ?? languages.data?.[0];
  if (!language)
    return (
      <p className="page-narrow" role="status">
        Loading…
      </p>
    );
  return <Redirect to={`/p/${projectId}/${language.codename}/content`} replace />;
}
