import type { DefinitionJson, Entry } from './definition-draft.ts';
import type { TaxonomyJson } from './definition-api.ts';

/** What the settings of an element choose from: the project's model and the draft's other elements. */
export interface SettingsContext {
  readonly types: readonly DefinitionJson[];
  readonly snippets: readonly DefinitionJson[];
  readonly taxonomies: readonly TaxonomyJson[];
  readonly elements: readonly Entry[];
}
