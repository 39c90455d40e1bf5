import { useRef, useState, type KeyboardEvent } from 'react';

export interface ToolbarButton {
  readonly key: string;
  /** The accessible name ("Bold"); the shortcut, if any, is added to the tooltip. */
  readonly label: string;
  /** What the button shows (a short sign). */
  readonly text: string;
  readonly shortcut?: string;
  readonly isEnabled: boolean;
  /** For toggles (formatting, lists): whether it is on at the selection. */
  readonly isPressed?: boolean;
  readonly onRun: () => void;
}

export interface BlockChoice {
  readonly value: string;
  readonly label: string;
  readonly isEnabled: boolean;
}

export interface ToolbarProps {
  readonly label: string;
  readonly controls: string;
  readonly block: {
    readonly value: string;
    readonly choices: readonly BlockChoice[];
    readonly onChoose: (value: string) => void;
  };
  /** Groups of buttons, separated visually. */
  readonly groups: readonly (readonly ToolbarButton[])[];
  readonly isReadOnly: boolean;
}

/**
 * A WAI-ARIA toolbar: one Tab stop (roving tabindex), Left/Right (and Home/End) move between
 * controls, Enter or Space runs a button. Unavailable buttons stay focusable with
 * aria-disabled, so a keyboard user finds them and hears why nothing happens. Mouse presses do
 * not take focus from the text, so the selection they act on stays.
 */
export function Toolbar({ label, controls, block, groups, isReadOnly }: ToolbarProps) {
  const [active, setActive] = useState(0);
  const refs = useRef<(HTMLElement | null)[]>([]);
  const buttons = groups.flat();
  const count = buttons.length + 1;

  const move = (index: number) => {
    const next = (index + count) % count;
    setActive(next);
    refs.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = refs.current.indexOf(event.target as HTMLElement);
    if (index < 0) return;
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: count - 1 };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    move(to);
  };

  let position = 0;
  const selectIndex = position++;
  return (
    <div role="toolbar" aria-label={label} aria-controls={controls} className="rt-toolbar" onKeyDown={onKeyDown}>
      <select
        ref={(el) => {
          refs.current[selectIndex] = el;
        }}
        aria-label="Text style"
        className="rt-block-select"
        tabIndex={active === selectIndex ? 0 : -1}
        value={block.value}
        disabled={isReadOnly}
        onFocus={() => setActive(selectIndex)}
        onChange={(e) => block.onChoose(e.target.value)}
      >
        {block.value === '' ? <option value="">—</option> : null}
        {block.choices.map((choice) => (
          <option key={choice.value} value={choice.value} disabled={!choice.isEnabled}>
            {choice.label}
          </option>
        ))}
      </select>
      {groups.map((group, g) => (
        <div role="group" key={g} className="rt-toolbar-group">
          {group.map((button) => {
            const index = position++;
            const isDisabled = isReadOnly || !button.isEnabled;
            return (
              <button
                key={button.key}
                ref={(el) => {
                  refs.current[index] = el;
                }}
                type="button"
                className="rt-tool"
                title={button.shortcut === undefined ? button.label : `${button.label} (${button.shortcut})`}
                aria-pressed={button.isPressed}
                aria-disabled={isDisabled ? true : undefined}
                tabIndex={active === index ? 0 : -1}
                onFocus={() => setActive(index)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  if (!isDisabled) button.onRun();
                }}
              >
                <span aria-hidden="true">{button.text}</span>
                <span className="visually-hidden">{button.label}</span>
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}
