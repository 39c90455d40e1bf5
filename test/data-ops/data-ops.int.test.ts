import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesRoot } from '@lectern/testing';
import { startLecternForDataOps, type LecternForDataOps, type Project } from './lectern-for-data-ops.ts';
import { deliverySnapshot, readProject } from './project-snapshot.ts';
import { seedSource } from './seed-source.ts';

/**
 * `@kontent-ai/data-ops` 2.6.2, unchanged, against `lectern start`: backup and restore between two
 * projects, sync diff and run, migrate-content snapshot and run, and a restore of the backup
 * data-ops itself exported from Kontent.ai.
 *
 * What data-ops 2.6.2 drops by design (its own code, the same against Kontent.ai):
 * - it exports the newest version of each variant only, so a published version under a newer
 *   draft is not restored: the target holds the draft alone and Delivery does not serve it;
 * - it restores a scheduled variant as a draft in its workflow's first step, unscheduled (a TODO
 *   in its languageVariants entity);
 * - `migrate-content run --filename` sends to Kontent.ai's own host whatever `--kontentUrl` says,
 *   so items move source → target directly here; and the migration toolkit under it exports a
 *   nested taxonomy term as its top-level ancestor (its findTaxonomy returns the branch).
 */
type Json = Record<string, unknown>;
const languages = ['default', 'cs-CZ', 'de-DE'];
let lectern: LecternForDataOps;
let source: Project;
let restored: Project;
let synced: Project;

beforeAll(async () => {
  lectern = await startLecternForDataOps();
  source = await lectern.createProject('Source');
  await seedSource(source.api);
}, 300_000);
afterAll(async () => {
  await lectern.stop();
});

async function dataOps(args: readonly string[]): Promise<string> {
  const { code, output } = await lectern.dataOps(args);
  if (code !== 0) throw new Error(`data-ops ${args.slice(0, 2).join(' ')} exited ${code}:\n${output}`);
  return output;
}

/** The source's Management snapshot as data-ops restores it: the scheduled variant as a draft. */
function withoutSchedules(snapshot: Json): Json {
  const variants = (snapshot['variants'] as Json[]).map((v) => {
    const schedule = v['schedule'] as Json;
    if (schedule['publish_time'] === null) return v;
    const draft = { id: 'step:draft' };
    const workflow = v['workflow'] as Json;
    return {
      ...v,
      workflow: { ...workflow, step_identifier: draft },
      workflow_step: draft,
      schedule: { ...schedule, publish_time: null },
    };
  });
  return { ...snapshot, variants };
}

/** Delivery items, less those whose published version sits under a newer draft (`drafted`). */
function withoutVersionsUnder(delivery: Json, drafted: readonly string[]): Json {
  const items = (list: unknown) =>
    (list as Json[]).filter((item) => !drafted.includes(String((item['system'] as Json)['codename'])));
  return Object.fromEntries(Object.entries(delivery).map(([language, list]) => [language, items(list)]));
}

describe('data-ops environment backup and restore', () => {
  it('restores a backup into an empty project with everything but what data-ops drops by design', async () => {
    await dataOps([
      'environment',
      'backup',
      '--environmentId',
      source.id,
      '--apiKey',
      source.managementKey,
      '--fileName',
      'source.zip',
    ]);
    restored = await lectern.createProject('Restored');
    const output = await dataOps([
      'environment',
      'restore',
      '--environmentId',
      restored.id,
      '--apiKey',
      restored.managementKey,
      '--fileName',
      'source.zip',
    ]);
    expect(output).toContain('All entities were successfully imported.');

    const before = await readProject(source.api, source.id);
    const after = await readProject(restored.api, restored.id);
    expect((after.snapshot['variants'] as unknown[]).length).toBe(7);
    expect(after.snapshot).toEqual(withoutSchedules(before.snapshot));

    const bytes = async (project: Project) => {
      const [asset] = (await project.api.call('GET', '/assets'))['assets'] as Json[];
      return Buffer.from(await (await fetch(String(asset?.['url']))).arrayBuffer());
    };
    const binary = await bytes(restored);
    expect(binary.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(binary.equals(await bytes(source))).toBe(true);

    // Delivery and Preview serve the same content; Delivery lacks latte, whose published version
    // sat under a newer draft, and links to it carry no URL slug.
    const published = (project: Project, relabel: (v: unknown) => unknown) =>
      deliverySnapshot({ url: lectern.deliveryUrl, projectId: project.id, languages, relabel });
    const expected = withoutVersionsUnder(await published(source, before.relabel), ['latte']);
    const actual = await published(restored, after.relabel);
    expect(actual).toEqual(
      JSON.parse(JSON.stringify(expected).replaceAll('"url_slug":"latte-title"', '"url_slug":""')),
    );
    // German falls back to Czech, as in the source.
    expect((actual['de-DE'] as Json[]).map((i) => (i['system'] as Json)['language'])).toEqual(['cs-CZ']);
    const preview = (project: Project, relabel: (v: unknown) => unknown) =>
      deliverySnapshot({ url: lectern.previewUrl, projectId: project.id, key: project.previewKey, languages, relabel });
    const sourcePreview = JSON.stringify(await preview(source, before.relabel));
    expect(JSON.stringify(await preview(restored, after.relabel))).toBe(
      sourcePreview.replaceAll('"workflow_step":"scheduled"', '"workflow_step":"draft"'),
    );
  }, 300_000);

  it('restores the backup data-ops exported from Kontent.ai into an empty project with no error', async () => {
    const file = join(fixturesRoot, 'management/kontent-ai+data-ops/tests/integration/backupRestore/data/backup.zip');
    const target = await lectern.createProject('From Kontent.ai');
    const output = await dataOps([
      'environment',
      'restore',
      '--environmentId',
      target.id,
      '--apiKey',
      target.managementKey,
      '--fileName',
      file,
    ]);
    expect(output).toContain('All entities were successfully imported.');
    const backup = unzipSync(readFileSync(file));
    const count = (name: string) => (JSON.parse(new TextDecoder().decode(backup[name])) as unknown[]).length;
    const restoredModel = await readProject(target.api, target.id);
    for (const [entity, key] of [
      ['contentTypes.json', 'types'],
      ['contentItems.json', 'items'],
      ['assets.json', 'assets'],
      ['taxonomies.json', 'taxonomies'],
      ['languageVariants.json', 'variants'],
    ] as const)
      expect([entity, (restoredModel.snapshot[key] as unknown[]).length]).toEqual([entity, count(entity)]);
  }, 300_000);
});

describe('data-ops sync and migrate-content', () => {
  it('sync diff finds no change after the restore; sync run copies the model into a third project', async () => {
    const noChanges = (output: string) =>
      output.split('\n').filter((l) => /^\s*(\{|"|to add|to update|to delete)/.test(l));
    const afterRestore = await dataOps([
      'sync',
      'diff',
      '--sourceEnvironmentId',
      source.id,
      '--sourceApiKey',
      source.managementKey,
      '--targetEnvironmentId',
      restored.id,
      '--targetApiKey',
      restored.managementKey,
    ]);
    expect(afterRestore).toContain('No content types to update.');
    expect(noChanges(afterRestore)).toEqual([]);

    synced = await lectern.createProject('Synced');
    await dataOps([
      'sync',
      'run',
      '--sourceEnvironmentId',
      source.id,
      '--sourceApiKey',
      source.managementKey,
      '--targetEnvironmentId',
      synced.id,
      '--targetApiKey',
      synced.managementKey,
      '--skipConfirmation',
      '--entities',
      'contentTypes',
      'contentTypeSnippets',
      'taxonomies',
      'collections',
      'assetFolders',
      'spaces',
      'languages',
      'webSpotlight',
      'workflows',
    ]);
    const afterRun = await dataOps([
      'sync',
      'diff',
      '--sourceEnvironmentId',
      source.id,
      '--sourceApiKey',
      source.managementKey,
      '--targetEnvironmentId',
      synced.id,
      '--targetApiKey',
      synced.managementKey,
    ]);
    expect(afterRun).toContain('No workflows to update.');
    expect(noChanges(afterRun)).toEqual([]);
    const model = (p: Json) => ({
      types: p['types'],
      snippets: p['snippets'],
      taxonomies: p['taxonomies'],
      languages: p['languages'],
    });
    const [from, to] = [await readProject(source.api, source.id), await readProject(synced.api, synced.id)];
    expect(model(to.snapshot)).toEqual(model(from.snapshot));
  }, 300_000);

  it('migrate-content snapshot and run move the named items, and each one reported is in the target', async () => {
    const items = ['espresso', 'latte', 'lungo', 'cortado'];
    const common = [
      '--sourceEnvironmentId',
      source.id,
      '--sourceApiKey',
      source.managementKey,
      '--language',
      'default',
      '--items',
      ...items,
    ];
    await dataOps(['migrate-content', 'snapshot', ...common, '--filename', 'items.zip', '--skipConfirmation']);
    const files = Object.keys(unzipSync(readFileSync(join(lectern.dir, 'items.zip'))));
    expect(files.length).toBeGreaterThan(0);
    const output = await dataOps([
      'migrate-content',
      'run',
      ...common,
      '--targetEnvironmentId',
      synced.id,
      '--targetApiKey',
      synced.managementKey,
      '--skipConfirmation',
    ]);
    expect(output).toContain('completed: Finished import\n');
    expect(output).not.toMatch(/Finished import with '\d+' errors/);
    const values = async (project: Project) => {
      const { snapshot } = await readProject(project.api, project.id);
      const isDefault = (v: Json) => (v['language'] as Json)['id'] === 'default';
      const byItem = new Map(
        (snapshot['variants'] as Json[]).filter(isDefault).map((v) => [(v['item'] as Json)['id'], v['elements']]),
      );
      return Object.fromEntries(items.map((codename) => [codename, byItem.get(`item:${codename}`) ?? null]));
    };
    // mocha, named in rich text but not migrated, stays a reference to an item yet to come (its
    // id unknown); the migration toolkit names a nested taxonomy term by its top-level ancestor.
    const expected = JSON.stringify(await values(source))
      .replaceAll('item:mocha', '?')
      .replaceAll('term:espresso', 'term:coffee');
    expect(await values(synced)).toEqual(JSON.parse(expected));
  }, 300_000);
});
