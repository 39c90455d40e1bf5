import type { ComponentType, ReactNode } from 'react';
import { AssetElement } from './asset.tsx';
import { CustomElement } from './custom.tsx';
import { DateTimeElement } from './date-time.tsx';
import type { ElementProps } from './element-props.ts';
import { GuidelinesElement, GuidelinesText } from './guidelines.tsx';
import type { ElementKind, ElementValue, TypeElement } from './model.ts';
import { ModularContentElement } from './modular-content.tsx';
import { MultipleChoiceElement } from './multiple-choice.tsx';
import { NumberElement } from './number.tsx';
import { RichTextElementField } from './rich-text.tsx';
import { SubpagesElement } from './subpages.tsx';
import { TaxonomyElement } from './taxonomy.tsx';
import { TextElement } from './text.tsx';
import { UrlSlugElement } from './url-slug.tsx';
import type { ElementProblems } from './validation.ts';
import { ElementCommentButton } from '../screens/item/comments/element-comment-button.tsx';

/** The component of each element kind. */
export const elementComponents: Partial<Record<ElementKind, ComponentType<ElementProps>>> = {
  text: TextElement,
  rich_text: RichTextElementField,
  number: NumberElement,
  date_time: DateTimeElement,
  multiple_choice: MultipleChoiceElement,
  asset: AssetElement,
  modular_content: ModularContentElement,
  subpages: SubpagesElement,
  taxonomy: TaxonomyElement,
  url_slug: UrlSlugElement,
  custom: CustomElement,
  guidelines: GuidelinesElement,
};

/** Kinds with one control that a `<label for>` names; the others label a group. */
const singleControl = new Set<ElementKind>(['text', 'number', 'date_time', 'url_slug']);

/** DOM id of an element's field (the summary links to it). */
export function fieldId(prefix: string, elementId: string): string {
  return `${prefix}-el-${elementId}`;
}

/**
 * One element of the form: its name (with the required marker), guidelines as text, the kind's
 * control, and its messages (errors before and after Save; notices of what publishing needs).
 */
export function ElementField(props: {
  prefix: string;
  element: TypeElement;
  value: ElementValue;
  onChange: (next: ElementValue) => void;
  isReadOnly: boolean;
  readOnlyNote?: string | undefined;
  problems: ElementProblems;
  apiErrors: readonly string[];
  /** Beside the name (who else is editing the element). */
  badge?: ReactNode;
  /** The control; by default the kind's own (tests pass the one they test). */
  component?: ComponentType<ElementProps> | undefined;
}) {
  const { prefix, element, problems, apiErrors } = props;
  const base = fieldId(prefix, element.id);
  const inputId = `${base}-input`;
  const labelId = `${base}-label`;
  const guidelinesId = `${base}-guidelines`;
  const messagesId = `${base}-messages`;
  const name = element.name ?? element.codename;
  if (element.type === 'guidelines') {
    return (
      <section id={base} className="element-field element-field-guidelines" aria-labelledby={labelId}>
        <h3 id={labelId} className="element-label">
          Guidelines
        </h3>
        <GuidelinesElement {...props} inputId={inputId} labelId={labelId} describedBy={undefined} />
      </section>
    );
  }
  const Component = props.component ?? elementComponents[element.type];
  const errors = [...problems.errors, ...apiErrors];
  const hasGuidelines = typeof element.guidelines === 'string' && element.guidelines.trim() !== '';
  const describedBy =
    [hasGuidelines ? guidelinesId : '', errors.length + problems.notices.length > 0 ? messagesId : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const isSingle = singleControl.has(element.type);
  return (
    <div
      id={base}
      className={errors.length > 0 ? 'element-field has-error' : 'element-field'}
      data-codename={element.codename}
    >
      <div className="element-head">
        {isSingle ? (
          <label id={labelId} htmlFor={inputId} className="element-label">
            {name}
          </label>
        ) : (
          <span id={labelId} className="element-label">
            {name}
          </span>
        )}
        {element.is_required ? <span className="element-required">Required</span> : null}
        <ElementCommentButton elementId={element.id} name={name} />
        {props.badge ?? null}
      </div>
      {hasGuidelines ? <GuidelinesText id={guidelinesId} html={element.guidelines} /> : null}
      {props.readOnlyNote ? <p className="element-note">{props.readOnlyNote}</p> : null}
      {Component ? (
        <Component
          element={element}
          value={props.value}
          onChange={props.onChange}
          isReadOnly={props.isReadOnly}
          inputId={inputId}
          labelId={labelId}
          describedBy={describedBy}
        />
      ) : (
        <p className="element-note">This kind of element ({element.type}) cannot be edited here.</p>
      )}
      {errors.length + problems.notices.length > 0 ? (
        <ul id={messagesId} className="element-messages">
          {errors.map((m, i) => (
            <li key={`e${i}`} className="element-error">
              {m}
            </li>
          ))}
          {problems.notices.map((m, i) => (
            <li key={`n${i}`} className="element-notice">
              {m}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
