import type { ReactNode } from 'react';
import type { ComponentJson, TypeElement } from './model.ts';
import type { ElementProps } from './element-props.ts';
import { useFormScope } from './element-props.ts';

/** The props of the rich text helper's `RichTextElement` (src/rich-text/rich-text-element.tsx). */
export interface RichTextProps {
  readonly id: string;
  readonly label: string;
  readonly element: TypeElement;
  readonly value: string;
  readonly components: readonly ComponentJson[];
  readonly onChange: (next: { value: string; components: readonly ComponentJson[] }) => void;
  readonly isReadOnly: boolean;
  readonly projectId: string;
  readonly renderComponent: (component: ComponentJson, onChange: (next: ComponentJson) => void) => ReactNode;
}

/**
 * Stand-in for `RichTextElement` until the rich text editor is in the tree: the HTML in a text
 * box, components listed as nested forms. Same props, so the swap is one import.
 */
function RichTextPlaceholder(props: RichTextProps & { describedBy: string | undefined }) {
  return (
    <div className="element-rich-text">
      <textarea
        id={props.id}
        className="element-input"
        rows={6}
        value={props.value}
        readOnly={props.isReadOnly}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onChange({ value: e.target.value, components: props.components })}
      />
      {props.components.map((c, i) => (
        <div key={c.id} className="rich-text-component">
          {props.renderComponent(c, (next) =>
            props.onChange({ value: props.value, components: props.components.map((x, j) => (j === i ? next : x)) }),
          )}
        </div>
      ))}
    </div>
  );
}

/** A rich text element: the value (HTML) and its components, edited by the rich text editor. */
export function RichTextElementField({ element, value, onChange, isReadOnly, inputId, describedBy }: ElementProps) {
  const scope = useFormScope();
  return (
    <RichTextPlaceholder
      id={inputId}
      label={element.name ?? element.codename}
      element={element}
      value={typeof value.value === 'string' ? value.value : ''}
      components={value.components ?? []}
      onChange={(next) => onChange({ ...value, value: next.value, components: next.components })}
      isReadOnly={isReadOnly}
      projectId={scope.projectId}
      renderComponent={scope.renderComponent}
      describedBy={describedBy}
    />
  );
}
