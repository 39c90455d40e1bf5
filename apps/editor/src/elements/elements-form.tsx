import { useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import '../styles/elements.css';
import { ElementField, fieldId } from './element-field.tsx';
import { FormScopeContext, useFormScope, type FormScope } from './element-props.ts';
import { emptyValue, holdsValue, type ComponentJson, type ElementValue, type TypeElement } from './model.ts';
import { useExpandedType } from './queries.ts';
import { checkElement, type ElementProblems } from './validation.ts';

/**
 * The complete value list of a form: the loaded entries as they came (their order and every
 * property kept, so an unedited form saves exactly what it loaded), then an empty value for each
 * element of the type the variant had no entry for.
 */
export function completeValues(defs: readonly TypeElement[], loaded: readonly ElementValue[]): ElementValue[] {
  const have = new Set(loaded.map((e) => e.element.id));
  return [...loaded, ...defs.filter((d) => holdsValue(d.type) && !have.has(d.id)).map(emptyValue)];
}

/** The problems of every element (before Save), by element id. */
export function checkAll(defs: readonly TypeElement[], values: readonly ElementValue[]): Map<string, ElementProblems> {
  const byId = new Map(values.map((v) => [v.element.id, v]));
  const out = new Map<string, ElementProblems>();
  for (const def of defs) {
    const v = byId.get(def.id);
    if (v) out.set(def.id, checkElement(def, v));
  }
  return out;
}

export interface ElementsFormProps {
  /** Ids in the DOM start with it (a nested form gets its own). */
  readonly idPrefix: string;
  /** The type's elements, snippets expanded (`expandSnippets`), in the type's order. */
  readonly elements: readonly TypeElement[];
  readonly contentGroups?: readonly { id: string; name: string }[];
  /** The values (`completeValues` of what was loaded); `onChange` gets the whole list. */
  readonly values: readonly ElementValue[];
  readonly onChange: (next: ElementValue[]) => void;
  readonly isReadOnly: boolean;
  /** False when the variant is not the default language's: non-localizable elements are read-only. */
  readonly isDefaultLanguage?: boolean;
  /** Shown after a refused Save, by element id. */
  readonly apiErrors?: ReadonlyMap<string, readonly string[]>;
  /** Set to an element id (with a new `seq`) to show its tab and focus it. */
  readonly focusRequest?: { readonly elementId: string; readonly seq: number } | null;
  /** Shown beside an element's name, by element id (who else is editing it). */
  readonly badges?: ReadonlyMap<string, ReactNode>;
  /** The item and language; a nested form inherits them. */
  readonly scope?: Pick<FormScope, 'projectId' | 'language' | 'item'>;
}

const noErrors: ReadonlyMap<string, readonly string[]> = new Map();
const noProblems: ElementProblems = { errors: [], notices: [] };

/**
 * The form for a list of type elements and their values: content groups as tabs (WAI-ARIA tabs,
 * arrow keys), elements in order, a snippet's elements under the snippet's name. Used for the
 * item and, nested, for rich text components.
 */
export function ElementsForm(props: ElementsFormProps) {
  const outer = useFormScope();
  const { elements, values, onChange, idPrefix } = props;
  const groups = props.contentGroups ?? [];
  const [activeGroup, setActiveGroup] = useState(groups[0]?.id ?? '');
  const byId = useMemo(() => new Map(values.map((v) => [v.element.id, v])), [values]);
  // An element without a (known) group shows on the first tab rather than on none.
  const groupOf = (e: TypeElement): string =>
    e.content_group && groups.some((g) => g.id === e.content_group?.id) ? e.content_group.id : (groups[0]?.id ?? '');
  const problems = useMemo(() => checkAll(elements, values), [elements, values]);
  const scope: FormScope = {
    ...outer,
    ...(props.scope ?? {}),
    values: byId,
    elements,
    renderComponent: (component, change) => (
      <ComponentForm component={component} onChange={change} isReadOnly={props.isReadOnly} />
    ),
  };

  useEffect(() => {
    const request = props.focusRequest;
    if (!request) return;
    const def = elements.find((e) => e.id === request.elementId);
    if (def && groups.length > 0) setActiveGroup(groupOf(def));
    setTimeout(() => {
      const field = document.getElementById(fieldId(idPrefix, request.elementId));
      // The text of a rich text element before its toolbar; else the first control.
      const target =
        field?.querySelector<HTMLElement>('[contenteditable="true"]') ??
        field?.querySelector<HTMLElement>('input, textarea, select, button:not(.comment-button), iframe');
      target?.focus();
    }, 0);
  }, [props.focusRequest, elements, idPrefix]);

  const change = (next: ElementValue) => {
    const i = values.findIndex((v) => v.element.id === next.element.id);
    onChange(i >= 0 ? values.map((v, j) => (j === i ? next : v)) : [...values, next]);
  };

  const fields = (list: readonly TypeElement[]) => {
    const out: ReactNode[] = [];
    let i = 0;
    while (i < list.length) {
      const snippet = (list[i]?.['snippet_of'] as { id: string; name: string } | undefined) ?? null;
      const run: TypeElement[] = [];
      while (
        i < list.length &&
        ((list[i]?.['snippet_of'] as { id: string } | undefined)?.id ?? null) === (snippet?.id ?? null)
      )
        run.push(list[i++] as TypeElement);
      const rendered = run.map((def) => {
        const isShared = props.isDefaultLanguage === false && def.is_non_localizable === true;
        return (
          <ElementField
            key={def.id}
            prefix={idPrefix}
            element={def}
            value={byId.get(def.id) ?? emptyValue(def)}
            onChange={change}
            isReadOnly={props.isReadOnly || isShared}
            readOnlyNote={isShared ? 'Shared by all languages: edit it in the default language.' : undefined}
            problems={problems.get(def.id) ?? noProblems}
            apiErrors={props.apiErrors?.get(def.id) ?? []}
            badge={props.badges?.get(def.id)}
          />
        );
      });
      if (snippet) {
        const headingId = `${idPrefix}-snippet-${snippet.id}`;
        out.push(
          <section key={headingId} className="snippet" aria-labelledby={headingId}>
            <h3 id={headingId} className="snippet-heading">
              {snippet.name}
            </h3>
            {rendered}
          </section>,
        );
      } else out.push(...rendered);
    }
    return out;
  };

  if (groups.length === 0)
    return (
      <FormScopeContext.Provider value={scope}>
        <div className="elements-form">{fields(elements)}</div>
      </FormScopeContext.Provider>
    );

  const tabId = (g: string) => `${idPrefix}-tab-${g}`;
  const panelId = (g: string) => `${idPrefix}-panel-${g}`;
  const onTabKey = (e: KeyboardEvent, index: number) => {
    const to =
      e.key === 'ArrowRight'
        ? (index + 1) % groups.length
        : e.key === 'ArrowLeft'
          ? (index - 1 + groups.length) % groups.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? groups.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    const g = groups[to];
    if (!g) return;
    setActiveGroup(g.id);
    document.getElementById(tabId(g.id))?.focus();
  };
  const errorCount = (groupId: string) =>
    elements.filter(
      (e) =>
        groupOf(e) === groupId &&
        ((problems.get(e.id)?.errors.length ?? 0) > 0 || (props.apiErrors ?? noErrors).has(e.id)),
    ).length;
  return (
    <FormScopeContext.Provider value={scope}>
      <div className="elements-form">
        <div role="tablist" aria-label="Content groups" className="content-groups">
          {groups.map((g, index) => {
            const isActive = g.id === activeGroup;
            const count = errorCount(g.id);
            return (
              <button
                key={g.id}
                id={tabId(g.id)}
                type="button"
                role="tab"
                aria-selected={isActive}
                aria-controls={panelId(g.id)}
                tabIndex={isActive ? 0 : -1}
                onClick={() => setActiveGroup(g.id)}
                onKeyDown={(e) => onTabKey(e, index)}
              >
                {g.name}
                {count > 0 ? <span className="tab-errors"> ({count} with errors)</span> : null}
              </button>
            );
          })}
        </div>
        {groups.map((g) => (
          <div
            key={g.id}
            id={panelId(g.id)}
            role="tabpanel"
            aria-labelledby={tabId(g.id)}
            hidden={g.id !== activeGroup}
            tabIndex={0}
          >
            {fields(elements.filter((e) => groupOf(e) === g.id))}
          </div>
        ))}
      </div>
    </FormScopeContext.Provider>
  );
}

/** A rich text component: a nested form for its type's elements. */
function ComponentForm(props: {
  component: ComponentJson;
  onChange: (next: ComponentJson) => void;
  isReadOnly: boolean;
}) {
  const scope = useFormScope();
  const type = useExpandedType(scope.projectId, props.component.type.id);
  if (type.isPending) return <p className="element-note">Loading the component…</p>;
  if (type.isError) return <p className="element-error">The component's content type could not be loaded.</p>;
  return (
    <fieldset className="component-form">
      <legend>{type.data.type.name}</legend>
      <ElementsForm
        idPrefix={`c-${props.component.id}`}
        elements={type.data.elements}
        values={completeValues(type.data.elements, props.component.elements)}
        onChange={(elements) => props.onChange({ ...props.component, elements })}
        isReadOnly={props.isReadOnly}
      />
    </fieldset>
  );
}
