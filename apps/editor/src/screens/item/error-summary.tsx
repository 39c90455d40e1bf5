/** One line of the summary: the element it concerns (when known) and the message. */
export interface SummaryEntry {
  readonly elementId: string | null;
  readonly elementName: string | null;
  readonly message: string;
}

/**
 * The messages that stop or refused a Save, at the top of the form, each linking to its element
 * (following a link shows the element's tab and focuses it).
 */
export function ErrorSummary({
  title,
  entries,
  onOpen,
}: {
  title: string;
  entries: readonly SummaryEntry[];
  onOpen: (elementId: string) => void;
}) {
  if (entries.length === 0) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{title}</h2>
      <ul>
        {entries.map((e, i) => (
          <li key={i}>
            {e.elementId ? (
              <a
                href={`#${e.elementId}`}
                onClick={(event) => {
                  event.preventDefault();
                  onOpen(e.elementId ?? '');
                }}
              >
                {e.elementName}: {e.message}
              </a>
            ) : (
              e.message
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
