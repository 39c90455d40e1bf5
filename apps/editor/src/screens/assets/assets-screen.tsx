/** Placeholder: the screen is being built (issue 28). */
export function AssetsScreen() {
  return (
    <main>
      <h1>AssetsScreen</h1>
    </main>
  );
}
