import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ManagementClient } from '@kontent-ai/management-sdk';
import {
  addContentType,
  addItem,
  backgroundTaskHandlers,
  getBackgroundTask,
  operator,
  randomIds,
  runBackgroundTasks,
  upsertVariant,
  type BackgroundTask,
  type BackgroundTaskKind,
  type TaskHandler,
} from '@lectern/core';
import { createTestClock, createTestDatabase, type TestCore } from '@lectern/testing';
import { openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

/*
 * Background tasks are rows in the store that any process's runner finishes: two runners over
 * one PostgreSQL database (two stores, as two processes have). Runner A takes a task and stops
 * in the middle (its process "killed": it never commits again); when A's lease ends, runner B
 * takes the task over and finishes it from A's last committed step. The status routes read the
 * stored task throughout.
 */

type Json = Record<string, unknown>;
const postgresUrl = inject('postgresUrl');
const leaseMs = 10_000;
const itemCount = 450;

/** The handlers of a runner whose process dies after `steps` committed steps (it hangs forever). */
function dyingAfter(steps: number): Record<BackgroundTaskKind, TaskHandler> {
  const wrap = (handler: TaskHandler): TaskHandler => ({
    fail: handler.fail,
    run(deps, ctx) {
      let committed = 0;
      return handler.run(deps, {
        task: ctx.task,
        step: (work) => (committed++ < steps ? ctx.step(work) : new Promise(() => undefined)),
      });
    },
  });
  return {
    validation: wrap(backgroundTaskHandlers.validation),
    clone_environment: wrap(backgroundTaskHandlers.clone_environment),
  };
}

describe.skipIf(!postgresUrl)('background tasks on PostgreSQL, shared by two runners', () => {
  const clock = createTestClock();
  let stores: SqlStore[];
  let cores: TestCore[];
  let server: TestManagement;

  async function until(taskId: string, test: (task: BackgroundTask) => boolean): Promise<BackgroundTask> {
    for (let i = 0; i < 400; i += 1) {
      const task = await getBackgroundTask(cores[1] as TestCore, { actor: operator, taskId });
      if (test(task)) return task;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`background task ${taskId} never reached the awaited state`);
  }
  const runnerB = () =>
    runBackgroundTasks(cores[1] as TestCore, { handlers: backgroundTaskHandlers, runnerId: 'runner-b', leaseMs });

  beforeAll(async () => {
    const url = await createTestDatabase(postgresUrl);
    stores = [await openPostgresStore({ connectionString: url }), await openPostgresStore({ connectionString: url })];
    cores = stores.map((store) => ({ store, clock, ids: randomIds }));
    server = await startTestManagement({ core: cores[0] as TestCore, isRunningTasks: false });
    const core = cores[0] as TestCore;
    const projectId = server.projectId;
    await addContentType(core, {
      actor: operator,
      projectId,
      body: {
        name: 'Note',
        codename: 'note',
        elements: [{ name: 'Body', codename: 'body', type: 'text', is_required: true }],
      },
    });
    for (let i = 0; i < itemCount; i += 1) {
      await addItem(core, {
        actor: operator,
        projectId,
        body: { name: `Item ${i}`, codename: `item_${i}`, type: { codename: 'note' } },
      });
      await upsertVariant(core, {
        actor: operator,
        projectId,
        itemKey: { codename: `item_${i}` },
        languageKey: { codename: 'default' },
        // Every tenth variant leaves its required element empty: a validation issue.
        body: { elements: [{ element: { codename: 'body' }, value: i % 10 === 0 ? '' : `Body ${i}` }] },
      });
    }
  }, 300_000);
  afterAll(async () => {
    await server.close();
    await stores[1]?.close();
  });

  it('finishes a clone on runner B after runner A stopped mid-copy, without copying anything twice', async () => {
    const response = await server.fetch('/clone-environment', {
      method: 'POST',
      body: JSON.stringify({ name: 'Copy' }),
    });
    const started = (await response.json()) as Json;
    const clone = new ManagementClient({
      environmentId: started['id'] as string,
      apiKey: started['management_api_key'] as string,
      baseUrl: server.baseUrl,
      retryStrategy: { maxAttempts: 0 },
    });
    const state = async () => (await clone.getEnvironmentCloningState().toPromise()).rawData.cloning_state;
    expect(await state()).toBe('in_progress');

    // A copies the model and the first page of items, then its process dies.
    void runBackgroundTasks(cores[0] as TestCore, { handlers: dyingAfter(2), runnerId: 'runner-a', leaseMs, limit: 1 });
    const taskId = await (async () => {
      for (let i = 0; i < 400; i += 1) {
        const rows = await stores[1]?.transaction((tx) =>
          tx.model.find<{ task_id: string }>(started['id'] as string, 'setting', { codename: 'cloning_state' }),
        );
        if (rows?.body.task_id) return rows.body.task_id;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('no cloning task');
    })();
    const stopped = await until(taskId, (t) => t.progress.done >= 201);
    expect(stopped).toMatchObject({ status: 'running', attempts: 1, progress: { done: 201, total: itemCount + 2 } });
    expect(await state()).toBe('in_progress');

    // B finds nothing to take while A's lease holds, and takes over once it has ended.
    expect(await runnerB()).toBe(0);
    clock.advance(leaseMs + 1);
    expect(await runnerB()).toBe(1);
    const finished = await getBackgroundTask(cores[1] as TestCore, { actor: operator, taskId });
    expect(finished).toMatchObject({
      status: 'finished',
      attempts: 2,
      progress: { done: itemCount + 2, total: itemCount + 2 },
    });
    expect(await state()).toBe('done');
    const copied = (await clone.listContentItems().toAllPromise()).data.items.map((i) => i.codename);
    expect(copied).toHaveLength(itemCount);
    expect(new Set(copied).size).toBe(itemCount);
    const variant = await clone
      .viewLanguageVariant()
      .byItemCodename('item_449')
      .byLanguageCodename('default')
      .toPromise();
    expect(variant.data.elements[0]?.value).toBe('Body 449');
  });

  it('finishes a validation on runner B after runner A stopped, and the status routes read the stored task', async () => {
    const response = await server.fetch('/validate-async', { method: 'POST' });
    expect(response.status).toBe(202);
    const taskId = ((await response.json()) as Json)['id'] as string;
    const status = async () =>
      (await (await server.fetch(`/validate-async/tasks/${taskId}`)).json()) as {
        status: string;
        validation_result: string;
      };

    void runBackgroundTasks(cores[0] as TestCore, { handlers: dyingAfter(0), runnerId: 'runner-a', leaseMs, limit: 1 });
    await until(taskId, (t) => t.status === 'running');
    expect(await status()).toMatchObject({ status: 'queued', validation_result: 'none' });
    clock.advance(leaseMs + 1);
    expect(await runnerB()).toBe(1);
    expect(await status()).toMatchObject({ status: 'finished', validation_result: 'issues_found' });
    const issues = (await (await server.fetch(`/validate-async/tasks/${taskId}/issues`)).json()) as { issues: Json[] };
    expect(issues.issues).toHaveLength(itemCount / 10);
  });
});
