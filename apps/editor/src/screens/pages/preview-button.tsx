import { useCollections } from '../../api/project-model.ts';
import { previewUrlsOf } from '../../api/preview-url.ts';
import type { ElementValue, TypeElement } from '../../elements/model.ts';
import { usePreviewConfiguration, useSpaces } from './pages-data.ts';

/**
 * The item editor's "Preview": the type's preview URL for this item and language (one link per
 * space that holds the item), opened in a new tab; the reason when it cannot be built (no URL
 * slug, no space domain). Nothing when the type has no preview URL. The same expansion as the
 * page view (api/preview-url.ts).
 */
export function PreviewButton(props: {
  projectId: string;
  item: { id: string; codename: string; type: { id: string }; collection?: { id: string } };
  languageCodename: string;
  defs: readonly TypeElement[];
  values: readonly ElementValue[];
}) {
  const spaces = useSpaces(props.projectId);
  const config = usePreviewConfiguration(props.projectId);
  const collections = useCollections(props.projectId);
  if (!spaces.data || !config.data) return null;
  const slugDef = props.defs.find((d) => d.type === 'url_slug');
  const slug = slugDef ? props.values.find((v) => v.element.id === slugDef.id)?.value : null;
  const collection = (collections.data ?? []).find((c) => c.id === props.item.collection?.id);
  const urls = previewUrlsOf(config.data, spaces.data, {
    id: props.item.id,
    codename: props.item.codename,
    typeId: props.item.type.id,
    collection: collection ? { id: collection.id, codename: collection.codename } : null,
    languageCodename: props.languageCodename,
    urlSlug: slugDef ? (typeof slug === 'string' ? slug : '') : null,
  });
  if (urls.length === 0) return null;
  return (
    <div className="item-preview">
      {urls.map((u, i) =>
        u.url !== null ? (
          <a key={i} className="button" href={u.url} target="_blank" rel="noopener noreferrer">
            {urls.length > 1 && u.space ? `Preview in ${u.space.name}` : 'Preview'}
          </a>
        ) : (
          <p key={i} className="element-note">
            Preview{urls.length > 1 && u.space ? ` in ${u.space.name}` : ''} is not available: {u.problem}
          </p>
        ),
      )}
    </div>
  );
}
