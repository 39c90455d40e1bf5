import type { ManagementClient } from './seed-source.ts';

type Json = Record<string, unknown>;
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Everything a project holds, read through the Management API, with every generated id replaced
 * by the kind and codename of what it names (`item:espresso`, `element:title`, …), so that two
 * projects holding the same content compare equal although their ids differ; `relabel` does the
 * same to any other answer about the project (Delivery's). Ids naming nothing
 * known become `?`. Left out: `last_modified`, and the external ids of model objects, which
 * data-ops gives every object it restores (those of items and assets are kept).
 */
export async function readProject(
  api: ManagementClient,
  projectId: string,
): Promise<{ snapshot: Json; relabel: (value: unknown) => unknown }> {
  const get = (path: string) => api.call('GET', path);
  const raw: Json = {
    languages: (await get('/languages'))['languages'],
    collections: (await get('/collections'))['collections'],
    spaces: await get('/spaces'),
    folders: (await get('/folders'))['folders'],
    taxonomies: (await get('/taxonomies'))['taxonomies'],
    snippets: (await get('/snippets'))['snippets'],
    types: (await get('/types'))['types'],
    workflows: await get('/workflows'),
    items: (await get('/items'))['items'],
    assets: (await get('/assets'))['assets'],
  };
  const variants: Json[] = [];
  for (const item of raw['items'] as Json[])
    variants.push(...((await get(`/items/${String(item['id'])}/variants`)) as unknown as Json[]));
  raw['variants'] = variants;
  const labels = labelIds(raw, projectId);
  const externalIds = (list: unknown) => (list as Json[]).map((o) => [o['codename'], o['external_id'] ?? null]);
  const snapshot: Json = {
    ...(relabel(raw, labels) as Json),
    itemExternalIds: externalIds(raw['items']),
    assetExternalIds: externalIds(raw['assets']),
  };
  for (const key of ['items', 'assets', 'types', 'snippets', 'taxonomies', 'workflows', 'languages', 'spaces'])
    (snapshot[key] as Json[]).sort((a, b) => String(a['codename']).localeCompare(String(b['codename'])));
  (snapshot['variants'] as Json[]).sort((a, b) =>
    JSON.stringify([a['item'], a['language']]).localeCompare(JSON.stringify([b['item'], b['language']])),
  );
  return { snapshot, relabel: (value) => relabel(value, labels) };
}

/** id → `<kind>:<codename>` for every object that has both, nested ones included. */
function labelIds(raw: Json, projectId: string): Map<string, string> {
  // The all-zero id names the default language, collection and workflow alike.
  const labels = new Map<string, string>([[projectId, 'project']]);
  const visit = (value: unknown, kind: string) => {
    if (Array.isArray(value)) for (const v of value) visit(v, kind);
    else if (value !== null && typeof value === 'object') {
      const o = value as Json;
      if (typeof o['id'] === 'string' && typeof o['codename'] === 'string')
        labels.set(o['id'], `${kind}:${o['codename']}`);
      for (const [key, child] of Object.entries(o)) visit(child, childKind(kind, key));
    }
  };
  for (const [key, value] of Object.entries(raw)) visit(value, key.replace(/s$/, ''));
  labels.set('00000000-0000-0000-0000-000000000000', 'default');
  for (const asset of raw['assets'] as Json[]) {
    const file = asset['file_reference'] as Json | undefined;
    if (typeof file?.['id'] === 'string') labels.set(file['id'], `file:${String(asset['codename'])}`);
  }
  return labels;
}

function childKind(kind: string, key: string): string {
  if (key === 'elements') return 'element';
  if (key === 'terms') return 'term';
  if (key === 'steps' || key.endsWith('_step')) return 'step';
  if (key === 'folders') return 'folder';
  if (key === 'options') return 'option';
  if (key === 'content_groups') return 'group';
  return kind;
}

function relabel(value: unknown, labels: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => relabel(v, labels));
  if (typeof value === 'string') return value.replace(uuid, (id) => labels.get(id.toLowerCase()) ?? '?');
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Json)
      .filter(([key]) => key !== 'last_modified' && key !== 'external_id')
      .map(([key, child]) => [relabel(key, labels), relabel(child, labels)]),
  );
}

/**
 * What Delivery (or Preview, with its key) serves of a project in each language, relabelled like
 * the Management snapshot.
 */
export async function deliverySnapshot(options: {
  url: string;
  projectId: string;
  key?: string;
  languages: readonly string[];
  relabel: (value: unknown) => unknown;
}): Promise<Json> {
  const snapshot: Json = {};
  for (const language of options.languages) {
    const response = await fetch(`${options.url}/${options.projectId}/items?language=${language}&depth=0`, {
      headers: {
        'x-kc-wait-for-loading-new-content': 'true',
        ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
      },
    });
    if (response.status !== 200) throw new Error(`Delivery items: ${response.status} ${await response.text()}`);
    snapshot[language] = options.relabel(((await response.json()) as Json)['items']);
  }
  return snapshot;
}
