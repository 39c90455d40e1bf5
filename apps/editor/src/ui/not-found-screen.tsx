import { Link } from 'wouter';

export function NotFoundScreen() {
  return (
    <main className="page-narrow">
      <h1>Page not found</h1>
      <p>
        <Link href="/">Back to your projects</Link>
      </p>
    </main>
  );
}
