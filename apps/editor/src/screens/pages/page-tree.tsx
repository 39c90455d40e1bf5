import { Link } from 'wouter';
import { usePage } from './pages-data.ts';

/** How deep the tree is followed (a cycle of subpages ends where an item repeats anyway). */
const maxDepth = 8;

interface TreeProps {
  readonly projectId: string;
  readonly language: { id: string; codename: string };
  readonly selectedId: string;
}

/**
 * The page tree of Web Spotlight: the root item and, nested, the items of each page's subpages
 * element, in order. Each page is a link to its preview; the open page is `aria-current`.
 */
export function PageTree(props: TreeProps & { readonly rootId: string }) {
  return (
    <nav className="page-tree" aria-label="Pages">
      <ul>
        <PageNode {...props} itemId={props.rootId} path={[]} />
      </ul>
    </nav>
  );
}

function PageNode(props: TreeProps & { readonly itemId: string; readonly path: readonly string[] }) {
  const { projectId, language, itemId, path } = props;
  const page = usePage(projectId, itemId, language);
  if (page.isError) return <li className="page-tree-error">A page could not be read: {page.error?.message}</li>;
  if (!page.data) return <li aria-busy="true">Loading…</li>;
  const children = path.length < maxDepth ? page.data.subpageIds.filter((id) => !path.includes(id)) : [];
  return (
    <li>
      <Link
        href={`/p/${projectId}/${language.codename}/pages/${itemId}`}
        aria-current={props.selectedId === itemId ? 'page' : undefined}
      >
        {page.data.item.name}
      </Link>
      {children.length > 0 ? (
        <ul>
          {children.map((id) => (
            <PageNode key={id} {...props} itemId={id} path={[...path, itemId]} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
