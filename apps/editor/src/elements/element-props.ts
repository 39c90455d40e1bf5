import { createContext, useContext, type ReactNode } from 'react';
import type { ComponentJson, ElementValue, TypeElement } from './model.ts';

/** What every element component gets from the form. */
export interface ElementProps {
  readonly element: TypeElement;
  readonly value: ElementValue;
  readonly onChange: (next: ElementValue) => void;
  readonly isReadOnly: boolean;
  /** Id of the element's main control, which the field's `<label>` points at. */
  readonly inputId: string;
  /** Id of the element's name, for controls labelled as a group (`aria-labelledby`). */
  readonly labelId: string;
  /** Ids of the guidelines and messages that describe the control (`aria-describedby`). */
  readonly describedBy: string | undefined;
}

/** The item (or component) a form edits, as custom elements and URL slugs need it. */
export interface FormScope {
  readonly projectId: string;
  /** The language the variant is in (id and codename). */
  readonly language: { readonly id: string; readonly codename: string };
  readonly item: {
    readonly id: string;
    readonly codename: string;
    readonly name: string;
    readonly collection?: { readonly id: string };
  } | null;
  /** Every value of the form by element id (URL slugs read their text element). */
  readonly values: ReadonlyMap<string, ElementValue>;
  /** Every element of the form (custom elements read others by codename). */
  readonly elements: readonly TypeElement[];
  /** A nested form for a rich text component (the `renderComponent` of RichTextElement). */
  readonly renderComponent: (component: ComponentJson, onChange: (next: ComponentJson) => void) => ReactNode;
}

const noScope: FormScope = {
  projectId: '',
  language: { id: '', codename: '' },
  item: null,
  values: new Map(),
  elements: [],
  renderComponent: () => null,
};

export const FormScopeContext = createContext<FormScope>(noScope);

export function useFormScope(): FormScope {
  return useContext(FormScopeContext);
}
