/** Placeholder: the screen is being built (issue 28). */
export function ProjectsScreen() {
  return (
    <main>
      <h1>ProjectsScreen</h1>
    </main>
  );
}
