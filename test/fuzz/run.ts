import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { snapshotChanges, type StoreSnapshot } from '@lectern/testing';
import { send, type FuzzApi, type FuzzRequest } from './client.ts';
import { deliveryRequests, otherListenerRequests } from './delivery.ts';
import { graphqlRequests } from './graphql.ts';
import { foreignBody, unsafeFile, upscaledImage } from './judge.ts';
import { LoopProbe, type Hold } from './loop-probe.ts';
import { managementFamilies, managementRequests } from './management.ts';
import { mcpRequests } from './mcp.ts';
import { costlyDeliveryRequests, costlyGraphqlRequests, costlyManagementRequests } from './costly-requests.ts';
import type { CostOptions } from './costly.ts';
import { recommendationsRequests } from './recommendations.ts';
import type { FuzzTarget } from './target.ts';

/** Kinds of problem the judge reports, in the order of the report's columns. */
export const problemKinds = [
  'server_error',
  'foreign_body',
  'stored_change',
  'no_answer',
  'blocked_loop',
  'unsafe_file',
  'upscaled_image',
] as const;
export type ProblemKind = (typeof problemKinds)[number];

/** What one request did: its status (0: no answer) and what was wrong with it, if anything. */
export interface Outcome {
  readonly status: number;
  /** How long the request held the event loop at most, in ms (its first attempt). */
  readonly loopMs: number;
  /**
   * A 5xx, a foreign error body, a change stored by a refused request, no answer at all, or the
   * event loop held past the budget (on the request and on its one retry).
   */
  readonly problem: { readonly kind: ProblemKind; readonly detail: string } | null;
}

/** The longest a request may hold the event loop (charter: no request over 100 ms). */
export const loopBudgetMs = 100;

/**
 * Runs requests against a target (whose server runs in this process) and judges each: the
 * answer (no 5xx, the API's error body), the store (every table and blob, compared before and
 * after every request: a refused request or a read must leave it unchanged; an accepted write's
 * change is attributed to it and only then becomes the baseline), and the event loop (held no
 * longer than `loopBudgetMs` while the request is in flight, GC pauses aside: see #budgetMiss).
 */
export class FuzzSession {
  readonly #target: FuzzTarget;
  readonly #probe = new LoopProbe();
  #baseline: StoreSnapshot | null = null;
  readonly #snapshots = { count: 0, totalMs: 0, maxMs: 0 };

  constructor(target: FuzzTarget) {
    this.#target = target;
  }

  async run(request: FuzzRequest): Promise<Outcome> {
    this.#baseline ??= await this.#target.snapshot();
    const first = await this.#send(request);
    const retry = first.hold.loopMs > loopBudgetMs ? await this.#send(request) : null;
    const { status } = first;
    // A torn request's server side ends after the client left: give its clean-up a moment.
    if (request.isTorn === true) await new Promise((resolve) => setTimeout(resolve, 100));
    // Every request is checked, reads included: the snapshot is one statement over the catalogue.
    const after = await this.#snapshot();
    const changed = snapshotChanges(this.#baseline, after);
    const isAccepted = request.isWrite && [status, retry?.status ?? 0].some((s) => s >= 200 && s < 300);
    this.#baseline = after;
    let problem = first.problem;
    if (problem === null && retry !== null) problem = this.#budgetMiss(status, first.hold, retry.hold);
    if (changed.length > 0 && !isAccepted && problem === null) {
      problem = { kind: 'stored_change', detail: `status ${status} changed ${changed.join(', ')}` };
    }
    return { status, loopMs: first.hold.loopMs, problem };
  }

  /**
   * A request over the budget (by the clock) is retried once, and fails when either attempt
   * really held the loop: its gap, bounded by the CPU time the loop’s thread spent within that gap (a
   * gap without CPU is the machine's load, not the request's work), less GC pauses in flight.
   * The first attempt counts even when the retry is fast: a server that caches its work answers
   * the retry from the cache. Both figures are reported.
   */
  #budgetMiss(status: number, first: Hold, retry: Hold): Outcome['problem'] {
    const held = (hold: Hold) => Math.min(hold.loopMs, hold.cpuMs) - this.#probe.gcMs(hold);
    if (held(first) <= loopBudgetMs && held(retry) <= loopBudgetMs) return null;
    const figures = (hold: Hold) =>
      `${Math.round(hold.loopMs)} ms (CPU ${Math.round(hold.cpuMs)} ms, GC ${Math.round(this.#probe.gcMs(hold))} ms)`;
    return {
      kind: 'blocked_loop',
      detail: `status ${status}: held the event loop ${figures(first)}, on retry ${figures(retry)} (budget ${loopBudgetMs} ms)`,
    };
  }

  /**
   * Indexes pending changes (Delivery and Recommendations), then takes a new baseline: indexing
   * is the consequence of writes already accepted, not of the next request.
   */
  async settle(): Promise<void> {
    await this.#target.catchUp();
    this.#baseline = await this.#target.snapshot();
  }

  /** What the snapshot after each request cost so far. */
  snapshotCost(): { count: number; meanMs: number; maxMs: number } {
    const { count, totalMs, maxMs } = this.#snapshots;
    return { count, meanMs: count === 0 ? 0 : totalMs / count, maxMs };
  }

  async #snapshot(): Promise<StoreSnapshot> {
    const started = performance.now();
    const snapshot = await this.#target.snapshot();
    const ms = performance.now() - started;
    this.#snapshots.count++;
    this.#snapshots.totalMs += ms;
    this.#snapshots.maxMs = Math.max(this.#snapshots.maxMs, ms);
    return snapshot;
  }

  /** Sends once, timing the event loop while the request is in flight only. */
  async #send(request: FuzzRequest): Promise<{ status: number; hold: Hold; problem: Outcome['problem'] }> {
    let status = 0;
    let problem: Outcome['problem'] = null;
    this.#probe.start();
    let hold: Hold;
    try {
      const response = await send(this.#target.urls[request.api], request);
      hold = this.#probe.stop();
      status = response.status;
      // A torn request expects no answer; only what it stored is judged.
      if (request.isTorn === true) return { status, hold, problem: null };
      const foreign = foreignBody(request, response);
      if (status >= 500)
        problem = { kind: 'server_error', detail: `${status} ${response.body.toString('utf8').slice(0, 200)}` };
      else if (foreign !== null) problem = { kind: 'foreign_body', detail: foreign };
      else {
        const unsafe = unsafeFile(request, response);
        const upscaled = upscaledImage(request, response, this.#target.known.image);
        if (upscaled !== null) problem = { kind: 'upscaled_image', detail: upscaled };
        else if (unsafe !== null) problem = { kind: 'unsafe_file', detail: unsafe };
      }
    } catch (error) {
      hold = this.#probe.stop();
      problem = { kind: 'no_answer', detail: (error as Error).message };
    }
    return { status, hold, problem };
  }

  /** Stops the event-loop probe (its GC observer), so the process can exit. */
  close(): void {
    this.#probe.close();
  }
}

/** One generator of the suite: a family of one API. */
export interface FuzzFamily {
  readonly api: FuzzApi;
  readonly family: string;
  readonly requests: fc.Arbitrary<FuzzRequest>;
}

/**
 * Every family: each Management route family, Delivery, Preview, GraphQL and Recommendations,
 * each with the costly inputs of its parsers mixed in (one request in four where it has them).
 */
export function fuzzFamilies(
  target: FuzzTarget,
  apis: readonly ('management' | 'delivery')[],
  options: CostOptions = { isHuge: true },
): FuzzFamily[] {
  const { known, keys } = target;
  const families: FuzzFamily[] = [];
  const withCostly = (own: fc.Arbitrary<FuzzRequest>, costly: fc.Arbitrary<FuzzRequest> | null) =>
    costly === null ? own : fc.oneof({ weight: 3, arbitrary: own }, { weight: 1, arbitrary: costly });
  if (apis.includes('management')) {
    for (const family of managementFamilies)
      families.push({
        api: 'management',
        family,
        requests: withCostly(
          managementRequests(known, keys.management, family),
          costlyManagementRequests(known, keys.management, family, options),
        ),
      });
  }
  if (apis.includes('management'))
    families.push({ api: 'management', family: 'mcp', requests: mcpRequests(known, keys.management) });
  if (apis.includes('delivery')) {
    families.push(
      {
        api: 'delivery',
        family: 'delivery',
        requests: withCostly(
          deliveryRequests(known, 'delivery', keys.delivery),
          costlyDeliveryRequests(known, 'delivery', keys.delivery, options),
        ),
      },
      {
        api: 'preview',
        family: 'preview',
        requests: withCostly(
          deliveryRequests(known, 'preview', keys.preview),
          costlyDeliveryRequests(known, 'preview', keys.preview, options),
        ),
      },
      {
        api: 'graphql',
        family: 'graphql',
        requests: withCostly(
          fc.oneof(graphqlRequests(known), otherListenerRequests(known, 'graphql')),
          costlyGraphqlRequests(known, options),
        ),
      },
      {
        api: 'recommendations',
        family: 'recommendations',
        requests: recommendationsRequests(known, keys.recommendations, options),
      },
    );
  }
  return families;
}

/** Counts of one row of the report. */
export interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  serverErrors: number;
  foreignBodies: number;
  storedChanges: number;
  noAnswer: number;
  blockedLoop: number;
  unsafeFiles: number;
  upscaledImages: number;
  /** The longest any request held the event loop, in ms. */
  maxLoopMs: number;
}

export function emptyTally(): Tally {
  return {
    requests: 0,
    byStatus: new Map(),
    serverErrors: 0,
    foreignBodies: 0,
    storedChanges: 0,
    noAnswer: 0,
    blockedLoop: 0,
    unsafeFiles: 0,
    upscaledImages: 0,
    maxLoopMs: 0,
  };
}

export function count(tally: Tally, outcome: Outcome): void {
  tally.requests++;
  tally.byStatus.set(outcome.status, (tally.byStatus.get(outcome.status) ?? 0) + 1);
  if (outcome.problem?.kind === 'server_error') tally.serverErrors++;
  if (outcome.problem?.kind === 'foreign_body') tally.foreignBodies++;
  if (outcome.problem?.kind === 'stored_change') tally.storedChanges++;
  if (outcome.problem?.kind === 'no_answer') tally.noAnswer++;
  if (outcome.problem?.kind === 'blocked_loop') tally.blockedLoop++;
  if (outcome.problem?.kind === 'unsafe_file') tally.unsafeFiles++;
  if (outcome.problem?.kind === 'upscaled_image') tally.upscaledImages++;
  tally.maxLoopMs = Math.max(tally.maxLoopMs, outcome.loopMs);
}

/** `n` requests of an arbitrary, drawn in batches from `seed` (reproducible). */
export function* draw<T>(arbitrary: fc.Arbitrary<T>, n: number, seed: number): Generator<T> {
  const batch = 500;
  for (let done = 0, round = 0; done < n; round++) {
    const size = Math.min(batch, n - done);
    for (const value of fc.sample(arbitrary, { numRuns: size, seed: seed + round })) yield value;
    done += size;
  }
}
