/** Placeholder: the screen is being built (issue 28). */
export function ItemScreen() {
  return (
    <main>
      <h1>ItemScreen</h1>
    </main>
  );
}
