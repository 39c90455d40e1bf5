import { Route, Switch } from 'wouter';
import { DefinitionEditorScreen } from './definition-editor.tsx';
import { DefinitionsScreen } from './definitions-screen.tsx';

/**
 * The routes of "Content types" and "Content type snippets" (one lazily loaded chunk):
 * `…/model/types`, `…/model/types/new`, `…/model/types/{id}`, and the same under `snippets`.
 */
export function ModelTypesRoutes() {
  return (
    <Switch>
      <Route path="/p/:projectId/:language/model/types">{() => <DefinitionsScreen kind="types" />}</Route>
      <Route path="/p/:projectId/:language/model/types/:id">{() => <DefinitionEditorScreen kind="types" />}</Route>
      <Route path="/p/:projectId/:language/model/snippets">{() => <DefinitionsScreen kind="snippets" />}</Route>
      <Route path="/p/:projectId/:language/model/snippets/:id">
        {() => <DefinitionEditorScreen kind="snippets" />}
      </Route>
    </Switch>
  );
}
