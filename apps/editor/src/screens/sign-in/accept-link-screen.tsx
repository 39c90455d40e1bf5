/** Placeholder: the screen is being built (issue 28). */
export function AcceptLinkScreen() {
  return (
    <main>
      <h1>AcceptLinkScreen</h1>
    </main>
  );
}
