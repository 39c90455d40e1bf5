import { Route, Switch } from 'wouter';
import { AcceptLinkScreen } from './screens/sign-in/accept-link-screen.tsx';
import { SignInScreen } from './screens/sign-in/sign-in-screen.tsx';
import { ProjectsScreen } from './screens/projects/projects-screen.tsx';
import { InventoryScreen } from './screens/inventory/inventory-screen.tsx';
import { ItemScreen } from './screens/item/item-screen.tsx';
import { AssetsScreen } from './screens/assets/assets-screen.tsx';
import { NotFoundScreen } from './ui/not-found-screen.tsx';

/**
 * The app's routes, under /app. A project's screens carry the project and the language the
 * person works in: /p/{projectId}/{languageCodename}/…
 */
export function App() {
  return (
    <Switch>
      <Route path="/sign-in" component={SignInScreen} />
      <Route path="/accept" component={AcceptLinkScreen} />
      <Route path="/" component={ProjectsScreen} />
      <Route path="/p/:projectId/:language/content" component={InventoryScreen} />
      <Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />
      <Route path="/p/:projectId/:language/assets" component={AssetsScreen} />
      <Route component={NotFoundScreen} />
    </Switch>
  );
}
