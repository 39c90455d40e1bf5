import { useState } from 'react';
import type { ElementProps } from './element-props.ts';

/**
 * A number element. What the person types is kept as typed; the value becomes the number it
 * reads as (null when empty). Text that is not a number leaves the value unchanged and is
 * flagged at the control.
 */
export function NumberElement({ value, onChange, isReadOnly, inputId, describedBy }: ElementProps) {
  const stored = typeof value.value === 'number' ? String(value.value) : '';
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? stored;
  const isInvalid = draft !== null && draft.trim() !== '' && !Number.isFinite(Number(draft));
  const errorId = `${inputId}-number-error`;
  return (
    <div className="element-number">
      <input
        id={inputId}
        className="element-input"
        type="text"
        inputMode="decimal"
        value={shown}
        readOnly={isReadOnly}
        aria-invalid={isInvalid || undefined}
        aria-describedby={[describedBy, isInvalid ? errorId : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          if (text.trim() === '') onChange({ ...value, value: null });
          else if (Number.isFinite(Number(text))) onChange({ ...value, value: Number(text) });
        }}
        onBlur={() => {
          if (!isInvalid) setDraft(null);
        }}
      />
      {isInvalid ? (
        <p id={errorId} className="element-error">
          Enter a number, such as 42 or 3.14.
        </p>
      ) : null}
    </div>
  );
}
