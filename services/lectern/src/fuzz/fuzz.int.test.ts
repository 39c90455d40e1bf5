import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { closeClient } from './client.ts';
import { deliveryFamilies } from './delivery.ts';
import { managementFamilies } from './management.ts';
import { FuzzSession, fuzzFamilies, type FuzzFamily } from './run.ts';
import { startFuzzTarget, type FuzzTarget } from './target.ts';

/*
 * The bounded fuzz run of ./scripts/test (issue 12): for every Management route family and every
 * Delivery, Preview, GraphQL and Recommendations route, generated malformed requests never get a
 * 5xx, every 4xx carries the API's own error body (HEAD answers none), and a refused request
 * stores nothing. `LECTERN_FUZZ_RUNS` sets the requests per family, `LECTERN_FUZZ_SEED` replays a
 * failure; `pnpm run fuzz` is the long run.
 */

const runs = Number(process.env['LECTERN_FUZZ_RUNS'] ?? 200);
const seed = process.env['LECTERN_FUZZ_SEED'] === undefined ? undefined : Number(process.env['LECTERN_FUZZ_SEED']);

let target: FuzzTarget;
let session: FuzzSession;
let families: FuzzFamily[];

beforeAll(async () => {
  target = await startFuzzTarget();
  session = new FuzzSession(target);
  families = fuzzFamilies(target, ['management', 'delivery']);
});
afterAll(async () => {
  await target?.close();
  closeClient();
});

async function fuzz(name: string): Promise<void> {
  const family = families.find((f) => f.family === name);
  if (!family) throw new Error(`no fuzz family ${name}`);
  await fc.assert(
    fc.asyncProperty(family.requests, async (request) => {
      const outcome = await session.run(request);
      if (outcome.problem !== null) {
        const shown = request.raw ?? `${request.method} ${request.path}`;
        throw new Error(
          `${outcome.problem.kind}: ${JSON.stringify(shown.slice(0, 300))} ${JSON.stringify(request.headers)} → ${outcome.problem.detail}`,
        );
      }
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
  );
}

describe('fuzz: no 5xx, the API error body on every 4xx, nothing stored by a refused request', () => {
  it.each([...managementFamilies])('Management %s', { timeout: 180_000 }, (name) => fuzz(name));
  it.each([...deliveryFamilies])('%s', { timeout: 180_000 }, async (name) => {
    await target.catchUp();
    await fuzz(name);
  });
});
