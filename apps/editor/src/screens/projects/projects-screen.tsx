import { Link, Redirect } from 'wouter';
import { useSession } from '../../api/session.ts';
import '../../styles/app-frame.css';

/** The person's projects; with only one, it opens straight away. */
export function ProjectsScreen() {
  const session = useSession();
  const projects = session.data?.projects ?? [];
  if (projects.length === 1 && projects[0]) return <Redirect to={`/p/${projects[0].id}`} replace />;
  return (
    <main className="page-narrow">
      <h1>Your projects</h1>
      {projects.length === 0 ? (
        <p>
          You are not a member of any project yet. Ask a project manager to invite you ({session.data?.user.email}).
        </p>
      ) : (
        <ul className="projects-list">
          {projects.map((p) => (
            <li key={p.id}>
              <Link href={`/p/${p.id}`}>{p.name}</Link>
              <span className="hint"> {p.roles.join(', ')}</span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
