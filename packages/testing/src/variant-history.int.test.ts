import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  addContentType,
  addItem,
  createNewVersion,
  createProject,
  getVariantVersion,
  listVariantVersions,
  operator,
  pruneHistory,
  publishVariant,
  randomIds,
  restoreVariantVersion,
  runDueJobs,
  schedulePublishAndUnpublish,
  snapshotEvery,
  upsertVariant,
  zeroId,
  type Actor,
  type CoreDeps,
} from '@lectern/core';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestClock, type TestClock } from './test-clock.ts';
import { createTestDatabase } from './test-database.ts';

/*
 * The version history on both engines: every core path that saves a variant keeps one version
 * (who, through which interface, which elements changed, the step, published), deltas between
 * snapshots, the published version readable under a newer draft, restore as a new version through
 * the upsert, the retention, and the history surviving a reopen of the same database.
 */

const postgresUrl = inject('postgresUrl');
/** Each engine opens a store on a database that a later `reopen` opens again. */
const engines: [string, () => Promise<() => Promise<SqlStore>>][] = [
  [
    'PGlite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'lectern-history-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return () => openPgliteStore({ dataDir: dir });
    },
  ],
  ...(postgresUrl
    ? [
        [
          'PostgreSQL',
          async () => {
            const url = await createTestDatabase(postgresUrl);
            return () => openPostgresStore({ connectionString: url });
          },
        ] as [string, () => Promise<() => Promise<SqlStore>>],
      ]
    : []),
];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const userId = '5e1f0000-0000-4000-8000-000000000001';

describe.each(engines)('the version history on %s', (_engine, prepare) => {
  it('keeps every save, restores as a new version, prunes, and survives a reopen', async () => {
    const open = await prepare();
    let store = await open();
    const clock: TestClock = createTestClock();
    let core: CoreDeps = { store, clock, ids: randomIds };
    const projectId = (await createProject(core, { actor: operator, name: 'History' })).id;
    const key: Actor = {
      type: 'api_key',
      keyId: '5e1f0000-0000-4000-8000-0000000000aa',
      projectId,
      keyKind: 'management',
      userId,
      permissions: ['manage_content', 'manage_model', 'manage_environment'],
    };
    const input = { actor: operator, projectId };
    const type = await addContentType(core, {
      ...input,
      body: {
        name: 'Article',
        codename: 'article',
        elements: [
          { name: 'Title', codename: 'title', type: 'text', is_required: true },
          { name: 'Summary', codename: 'summary', type: 'text' },
          { name: 'Body', codename: 'body', type: 'rich_text' },
        ],
      },
    });
    const elementId = (codename: string) =>
      (type.body.elements as { id: string; codename: string }[]).find((e) => e.codename === codename)?.id ?? '';
    await addItem(core, { ...input, body: { name: 'Coffee', codename: 'coffee', type: { codename: 'article' } } });
    const variant = { projectId, itemKey: { codename: 'coffee' }, languageKey: { id: zeroId } };
    const save = (actor: Actor, elements: Record<string, string>) => {
      clock.advance(60_000);
      return upsertVariant(core, {
        ...variant,
        actor,
        body: { elements: Object.entries(elements).map(([codename, value]) => ({ element: { codename }, value })) },
      });
    };
    const versions = async () => (await listVariantVersions(core, { ...variant, actor: operator })).items;

    await save(key, { title: 'Coffee', summary: 'Beans', body: '<p>Good coffee</p>' });
    await save(key, { summary: 'Roasted beans' });
    clock.advance(60_000);
    await publishVariant(core, { ...variant, actor: key });
    clock.advance(60_000);
    await createNewVersion(core, { ...variant, actor: key });
    await save(key, { title: 'Bad title', body: '<p>Oops</p>' });

    let list = await versions();
    expect(list.map((v) => [v.number, v.operation, v.interface, v.saved_by?.id ?? null])).toEqual([
      [5, 'upsert', 'management_api', userId],
      [4, 'new_version', 'management_api', userId],
      [3, 'publish', 'management_api', userId],
      [2, 'upsert', 'management_api', userId],
      [1, 'create', 'management_api', userId],
    ]);
    const [v5, v4, v3, v2] = list as [(typeof list)[0], (typeof list)[0], (typeof list)[0], (typeof list)[0]];
    expect(v2.changed_elements).toEqual([{ id: elementId('summary') }]);
    expect(v5.changed_elements.map((e) => e.id).sort()).toEqual([elementId('title'), elementId('body')].sort());
    expect(v4.changed_elements).toEqual([]);
    expect(v3.is_published).toBe(true);
    expect(v5.is_published).toBe(false);
    // The published version under the newer draft stays readable.
    expect(v5.published_version?.id).toBe(v3.id);
    const published = await getVariantVersion(core, { ...variant, actor: operator, versionId: v3.id });
    expect(published.elements.find((e) => e.element.id === elementId('title'))?.value).toBe('Coffee');
    expect(published.version.number).toBe(3);

    // Only the changed values are stored between snapshots; a change of most values is a snapshot.
    const rows = await store.transaction((tx) =>
      tx.history.range({ projectId, itemId: published.item.id, languageId: zeroId }, 1, 5),
    );
    expect(rows.map((r) => [r.isSnapshot, Object.keys(r.elements).length])).toEqual([
      [true, 3],
      [false, 1],
      [false, 0],
      [false, 0],
      [true, 3],
    ]);

    // A restore of version 2 in the draft: a new version with version 2's values, the draft's step.
    clock.advance(60_000);
    const restored = await restoreVariantVersion(core, { ...variant, actor: key, versionId: v2.id });
    expect(restored.version).toMatchObject({ number: 6, operation: 'restore', restored_from: { id: v2.id } });
    expect(restored.variant.elements.find((e) => e.element.id === elementId('title'))?.value).toBe('Coffee');
    expect(restored.variant.elements.find((e) => e.element.id === elementId('summary'))?.value).toBe('Roasted beans');

    // Restoring into a published variant creates a new version first.
    clock.advance(60_000);
    await publishVariant(core, { ...variant, actor: key });
    clock.advance(60_000);
    const again = await restoreVariantVersion(core, { ...variant, actor: key, versionId: v5.id });
    expect((await versions()).slice(0, 3).map((v) => v.operation)).toEqual(['restore', 'new_version', 'publish']);
    expect(again.variant.elements.find((e) => e.element.id === elementId('title'))?.value).toBe('Bad title');

    // A scheduled publish applied by the scheduler is recorded as a background task.
    clock.advance(60_000);
    await schedulePublishAndUnpublish(core, {
      ...variant,
      actor: key,
      body: { publish_scheduled_to: new Date(clock.now().getTime() + 3_600_000).toISOString() },
    });
    clock.advance(2 * 3_600_000);
    expect(await runDueJobs(core)).toBe(1);
    list = await versions();
    expect(list[0]).toMatchObject({
      operation: 'publish',
      interface: 'background_task',
      saved_by: null,
      is_published: true,
    });
    expect(list[1]).toMatchObject({ operation: 'schedule_publish', interface: 'management_api' });

    // Many saves: a snapshot at least every `snapshotEvery` versions.
    await createNewVersion(core, { ...variant, actor: key });
    for (let i = 0; i < 45; i++) await save(key, { summary: `Edit ${i}` });
    const all = await store.transaction((tx) =>
      tx.history.range({ projectId, itemId: published.item.id, languageId: zeroId }, 1, 1_000),
    );
    for (const row of all) expect(row.seq - row.baseSeq).toBeLessThan(snapshotEvery);
    const latest = all.at(-1);
    const latestJson = await getVariantVersion(core, { ...variant, actor: operator, versionId: latest?.id ?? '' });
    expect(latestJson.elements.find((e) => e.element.id === elementId('summary'))?.value).toBe('Edit 44');

    // The history survives a reopen of the same database.
    const before = await versions();
    await store.close();
    store = await open();
    core = { store, clock, ids: randomIds };
    expect(await versions()).toEqual(before);

    // Retention: keep 10 versions; the newest and the published one stay, every kept one readable.
    const publishedId = before[0]?.published_version?.id;
    expect(await pruneHistory(core, { keepDays: null, keepVersions: 10 })).toBeGreaterThan(0);
    const kept = (await listVariantVersions(core, { ...variant, actor: operator, pageSize: 100 })).items;
    expect(kept.length).toBe(11);
    expect(kept.some((v) => v.id === publishedId)).toBe(true);
    for (const v of kept) {
      const json = await getVariantVersion(core, { ...variant, actor: operator, versionId: v.id });
      expect(json.version.id).toBe(v.id);
    }
    const newest = await getVariantVersion(core, { ...variant, actor: operator, versionId: kept[0]?.id ?? '' });
    expect(newest.elements.find((e) => e.element.id === elementId('summary'))?.value).toBe('Edit 44');
    const oldPublished = await getVariantVersion(core, { ...variant, actor: operator, versionId: publishedId ?? '' });
    expect(oldPublished.elements.find((e) => e.element.id === elementId('title'))?.value).toBe('Bad title');
    // Age: everything older than a day goes, but the newest and the published version.
    clock.advance(2 * 86_400_000);
    await pruneHistory(core, { keepDays: 1, keepVersions: null });
    const left = (await listVariantVersions(core, { ...variant, actor: operator })).items;
    expect(left.map((v) => v.id).sort()).toEqual([kept[0]?.id, publishedId].sort());
    await store.close();
  }, 120_000);

  it('records a baseline for a variant saved before history was kept: its published and latest versions', async () => {
    const store = await (await prepare())();
    const core: CoreDeps = { store, clock: createTestClock(), ids: randomIds };
    const projectId = (await createProject(core, { actor: operator, name: 'Baseline' })).id;
    const input = { actor: operator, projectId };
    await addContentType(core, {
      ...input,
      body: { name: 'Note', codename: 'note', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
    });
    const item = await addItem(core, { ...input, body: { name: 'Old', codename: 'old', type: { codename: 'note' } } });
    const variant = { ...input, itemKey: { codename: 'old' }, languageKey: { id: zeroId } };
    const title = (value: string) => ({ elements: [{ element: { codename: 'title' }, value }] });
    await upsertVariant(core, { ...variant, body: title('Published words') });
    await publishVariant(core, variant);
    await createNewVersion(core, variant);
    await upsertVariant(core, { ...variant, body: title('Draft words') });
    // As if these saves happened before migration 0019: no history rows.
    const ref = { projectId, itemId: String(item['id']), languageId: zeroId };
    await store.transaction(async (tx) => {
      const rows = await tx.history.range(ref, 1, 100);
      await tx.history.delete(
        ref,
        rows.map((r) => r.id),
      );
    });
    await upsertVariant(core, { ...variant, body: title('New words') });
    const list = (await listVariantVersions(core, variant)).items;
    expect(list.map((v) => [v.number, v.operation, v.interface, v.is_published])).toEqual([
      [3, 'upsert', 'operator', false],
      [2, 'baseline', 'system', false],
      [1, 'baseline', 'system', true],
    ]);
    expect(list[0]?.published_version?.id).toBe(list[2]?.id);
    const read = async (id: string | undefined) =>
      (await getVariantVersion(core, { ...variant, versionId: id ?? '' })).elements[0]?.value;
    expect(await read(list[2]?.id)).toBe('Published words');
    expect(await read(list[1]?.id)).toBe('Draft words');
    expect(await read(list[0]?.id)).toBe('New words');
    await store.close();
  });
});
