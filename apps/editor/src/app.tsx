import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AcceptLinkScreen } from './screens/sign-in/accept-link-screen.tsx';
import { SignInScreen } from './screens/sign-in/sign-in-screen.tsx';
import { ProjectHome } from './screens/projects/project-home.tsx';
import { ProjectsScreen } from './screens/projects/projects-screen.tsx';
import { InventoryScreen } from './screens/inventory/inventory-screen.tsx';
import { AppFrame } from './ui/app-frame.tsx';
import { NotFoundScreen } from './ui/not-found-screen.tsx';
import { SignedIn } from './ui/signed-in.tsx';

/*
 * The item editor (with ProseMirror) and the asset library load on first use: the sign-in page and
 * the inventory, where a day starts, need none of their code.
 */
const ItemScreen = lazy(async () => ({ default: (await import('./screens/item/item-screen.tsx')).ItemScreen }));
const PagesScreen = lazy(async () => ({ default: (await import('./screens/pages/pages-screen.tsx')).PagesScreen }));
const CustomAppScreen = lazy(async () => ({
  default: (await import('./screens/custom-apps/custom-app-screen.tsx')).CustomAppScreen,
}));
const AuditScreen = lazy(async () => ({ default: (await import('./screens/audit/audit-screen.tsx')).AuditScreen }));
const ModelTypesRoutes = lazy(async () => ({
  default: (await import('./screens/model/types/model-types-routes.tsx')).ModelTypesRoutes,
}));
const AssetsScreen = lazy(async () => ({ default: (await import('./screens/assets/assets-screen.tsx')).AssetsScreen }));
const modelSettings = () => import('./screens/model/settings-kit/settings-screens.ts');
const TaxonomiesScreen = lazy(async () => ({ default: (await modelSettings()).TaxonomiesScreen }));
const CollectionsScreen = lazy(async () => ({ default: (await modelSettings()).CollectionsScreen }));
const SpacesScreen = lazy(async () => ({ default: (await modelSettings()).SpacesScreen }));
const LanguagesScreen = lazy(async () => ({ default: (await modelSettings()).LanguagesScreen }));
const WorkflowsScreen = lazy(async () => ({ default: (await modelSettings()).WorkflowsScreen }));
const PreviewUrlsScreen = lazy(async () => ({ default: (await modelSettings()).PreviewUrlsScreen }));

/**
 * The app's routes, under /app. A project's screens carry the project and the language the
 * person works in: /p/{projectId}/{languageCodename}/…, inside the app frame (which renders the
 * header; each screen renders the page's `<main>`). Everything but sign-in and links needs a
 * session: without one, the sign-in screen, then back.
 */
export function App() {
  return (
    <Switch>
      <Route path="/sign-in" component={SignInScreen} />
      <Route path="/accept" component={AcceptLinkScreen} />
      <Route>
        <SignedIn>
          <Switch>
            <Route path="/" component={ProjectsScreen} />
            <Route path="/p/:projectId" component={ProjectHome} />
            <Route path="/p/:projectId/:language/*?">
              <AppFrame>
                <Suspense fallback={<p role="status">Loading…</p>}>
                  <Switch>
                    <Route path="/p/:projectId/:language/content" component={InventoryScreen} />
                    <Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />
                    <Route path="/p/:projectId/:language/assets" component={AssetsScreen} />
                    <Route path="/p/:projectId/:language/model/taxonomies" component={TaxonomiesScreen} />
                    <Route path="/p/:projectId/:language/model/collections" component={CollectionsScreen} />
                    <Route path="/p/:projectId/:language/model/spaces" component={SpacesScreen} />
                    <Route path="/p/:projectId/:language/model/languages" component={LanguagesScreen} />
                    <Route path="/p/:projectId/:language/model/workflows" component={WorkflowsScreen} />
                    <Route path="/p/:projectId/:language/model/preview-urls" component={PreviewUrlsScreen} />
                    <Route path="/p/:projectId/:language/pages/:itemId?" component={PagesScreen} />
                    <Route path="/p/:projectId/:language/apps/:appId" component={CustomAppScreen} />
                    <Route path="/p/:projectId/:language/audit-log" component={AuditScreen} />
                    <Route path="/p/:projectId/:language/model/types/*?" component={ModelTypesRoutes} />
                    <Route path="/p/:projectId/:language/model/snippets/*?" component={ModelTypesRoutes} />
                    <Route path="/p/:projectId/:language/model">
                      {(p: { projectId: string; language: string }) => (
                        <Redirect to={`/p/${p.projectId}/${p.language}/model/types`} replace />
                      )}
                    </Route>
                    <Route component={NotFoundScreen} />
                  </Switch>
                </Suspense>
              </AppFrame>
            </Route>
            <Route component={NotFoundScreen} />
          </Switch>
        </SignedIn>
      </Route>
    </Switch>
  );
}
