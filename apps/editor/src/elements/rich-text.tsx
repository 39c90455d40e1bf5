import { RichTextElement } from '../rich-text/rich-text-element.tsx';
import type { ElementBody } from '@lectern/core';
import type { ElementProps } from './element-props.ts';
import { useFormScope } from './element-props.ts';
import type { ComponentJson } from './model.ts';

/**
 * A rich text element: the value (HTML) and its components, edited by the rich text editor
 * (src/rich-text), which the field names by `labelledBy` (its editable region is not a form
 * control a `<label for>` could point at); components are nested forms of their types.
 */
export function RichTextElementField({
  element,
  value,
  onChange,
  isReadOnly,
  inputId,
  labelId,
  describedBy,
}: ElementProps) {
  const scope = useFormScope();
  return (
    <RichTextElement<ComponentJson>
      id={inputId}
      label={element.name ?? element.codename}
      labelledBy={labelId}
      {...(describedBy ? { describedBy } : {})}
      element={element as ElementBody}
      value={typeof value.value === 'string' ? value.value : ''}
      components={value.components ?? []}
      onChange={(next) => onChange({ ...value, value: next.value, components: next.components })}
      isReadOnly={isReadOnly}
      projectId={scope.projectId}
      renderComponent={scope.renderComponent}
    />
  );
}
