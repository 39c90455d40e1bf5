import { characterCount, wordCount } from './model.ts';
import type { ElementProps } from './element-props.ts';

interface LengthLimit {
  readonly value: number;
  readonly applies_to: 'characters' | 'words';
}

/** The element's `maximum_text_length`, when it has one. */
export function textLimit(element: ElementProps['element']): LengthLimit | null {
  const limit = element['maximum_text_length'] as LengthLimit | null | undefined;
  return limit && typeof limit.value === 'number' ? limit : null;
}

/** How long a text is in the unit its limit counts. */
export function lengthIn(text: string, unit: LengthLimit['applies_to']): number {
  return unit === 'words' ? wordCount(text) : characterCount(text);
}

/** Enough rows to show the text (about 70 characters a row), 2 to 12. */
function rowsFor(text: string): number {
  const lines = text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 70)), 0);
  return Math.min(12, Math.max(2, lines));
}

/** A text element: a multi-line text box with a live counter against its length limit. */
export function TextElement({ element, value, onChange, isReadOnly, inputId, describedBy }: ElementProps) {
  const text = typeof value.value === 'string' ? value.value : '';
  const limit = textLimit(element);
  const counterId = `${inputId}-counter`;
  const length = lengthIn(text, limit?.applies_to ?? 'characters');
  const isOver = limit !== null && length > limit.value;
  return (
    <div className="element-text">
      <textarea
        id={inputId}
        className="element-input"
        rows={rowsFor(text)}
        value={text}
        readOnly={isReadOnly}
        aria-describedby={[describedBy, counterId].filter(Boolean).join(' ')}
        aria-invalid={isOver || undefined}
        onChange={(e) => onChange({ ...value, value: e.target.value })}
      />
      <p id={counterId} className={isOver ? 'element-counter is-over' : 'element-counter'}>
        {limit
          ? `${length} of ${limit.value} ${limit.applies_to}`
          : `${length} ${length === 1 ? 'character' : 'characters'}`}
      </p>
    </div>
  );
}
