/** Placeholder: the screen is being built (issue 28). */
export function InventoryScreen() {
  return (
    <main>
      <h1>InventoryScreen</h1>
    </main>
  );
}
