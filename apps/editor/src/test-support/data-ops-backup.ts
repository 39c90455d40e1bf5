import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import type { ContentTypeJson, SnippetJson, VariantJson } from '../elements/model.ts';
import type { ItemJson } from '../elements/queries.ts';
import type { Routes } from './render.tsx';

/**
 * The project data-ops backed up from a real Kontent.ai environment
 * (`fixtures/management/kontent-ai+data-ops/…/backup.zip`): its files hold the Management API's
 * own shapes, so the form can be opened on every element of it.
 */
export const fixturesRoot = join(
  process.env['LECTERN_REFERENCE_DIR'] ?? join(repoRoot(), '..', 'shared', 'reference'),
  'fixtures',
);

/** The repository (the folder with pnpm-workspace.yaml) above the working directory. */
function repoRoot(): string {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'pnpm-workspace.yaml')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export interface Backup {
  readonly types: ContentTypeJson[];
  readonly snippets: SnippetJson[];
  readonly items: ItemJson[];
  readonly variants: VariantJson[];
  readonly languages: {
    id: string;
    name: string;
    codename: string;
    is_default: boolean;
    is_active: boolean;
    fallback_language?: { id: string };
  }[];
  readonly taxonomies: { id: string; name: string; codename: string; terms: unknown[] }[];
  readonly assets: {
    id: string;
    file_name: string;
    title: string | null;
    size: number;
    type: string;
    url: string;
    image_width: number | null;
    image_height: number | null;
  }[];
}

export function readBackup(): Backup {
  const file = join(fixturesRoot, 'management/kontent-ai+data-ops/tests/integration/backupRestore/data/backup.zip');
  const files = unzipSync(readFileSync(file));
  const json = <T>(name: string): T => JSON.parse(new TextDecoder().decode(files[name])) as T;
  return {
    types: json('contentTypes.json'),
    snippets: json('contentTypeSnippets.json'),
    items: json('contentItems.json'),
    variants: json('languageVariants.json'),
    languages: json('languages.json'),
    taxonomies: json('taxonomies.json'),
    assets: json('assets.json'),
  };
}

/** Management API v2 answers (path → JSON) for the backup's objects, for `mockApi`. */
export function backupRoutes(b: Backup): Routes {
  const routes: Routes = {
    '/types': { types: b.types, pagination: { continuation_token: null, next_page: null } },
    '/languages': { languages: b.languages, pagination: { continuation_token: null, next_page: null } },
    '/assets': { assets: b.assets, pagination: { continuation_token: null, next_page: null } },
  };
  for (const t of b.types) routes[`/types/${t.id}`] = t;
  for (const s of b.snippets) routes[`/snippets/${s.id}`] = s;
  for (const t of b.taxonomies) routes[`/taxonomies/${t.id}`] = t;
  for (const a of b.assets) routes[`/assets/${a.id}`] = a;
  for (const i of b.items) {
    routes[`/items/${i.id}`] = i;
    routes[`/items/${i.id}/variants`] = b.variants.filter((v) => v.item.id === i.id);
  }
  return routes;
}
