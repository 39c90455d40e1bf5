/** Placeholder: the screen is being built (issue 28). */
export function SignInScreen() {
  return (
    <main>
      <h1>SignInScreen</h1>
    </main>
  );
}
