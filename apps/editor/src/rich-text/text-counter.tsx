import type { RichTextLimits } from './limits.ts';
import { textLength } from './text-length.ts';

/**
 * The live length of the text against the element's `maximum_text_length` ("12 / 100
 * characters"), and the API's own message once over it. Without a limit, the count alone.
 */
export function TextCounter({
  id,
  html,
  limit,
}: {
  readonly id: string;
  readonly html: string;
  readonly limit: RichTextLimits['maximumTextLength'];
}) {
  const appliesTo = limit?.appliesTo ?? 'characters';
  const length = textLength(html, appliesTo);
  const isOver = limit !== null && length > limit.value;
  return (
    <div id={id} className={`rt-counter${isOver ? ' is-over' : ''}`}>
      <span aria-live="polite">
        {limit === null ? `${length} ${appliesTo}` : `${length} / ${limit.value} ${appliesTo}`}
      </span>
      {isOver ? (
        <span className="rt-error" role="alert">
          {' '}
          The value is longer than {limit.value} {appliesTo}.
        </span>
      ) : null}
    </div>
  );
}
