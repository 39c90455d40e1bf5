import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ElementCheck, VariantQuery, VariantQueryKey, VariantQueryPage } from '@lectern/core';
import type { Database } from './schema.ts';

/*
 * The inventory query in one SQL statement: the project's items joined to their variant in the
 * language (a left join when items without one are asked for), every filter a predicate, and the
 * page read after the previous page's key in the order's index (see migration 0017), `limit + 1`
 * rows so the last one tells whether a page follows.
 */

type Condition = RawBuilder<unknown>;

const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`));
const isIn = (column: Condition, values: readonly string[]): Condition =>
  values.length === 0 ? sql`false` : sql`${column} in (${list(values)})`;
const anyOf = (conditions: Condition[]): Condition =>
  conditions.length === 0 ? sql`false` : sql`(${sql.join(conditions, sql` or `)})`;

const valueOf = (elementId: string): Condition => sql`(v.body->'elements'->${elementId}::text->'value')`;

/** A count limit that the element's array value breaks. */
function breaksCount(check: Extract<ElementCheck, { kind: 'count' }>): Condition {
  const value = valueOf(check.elementId);
  const length = sql`jsonb_array_length(${value})`;
  const tooMany = check.max === null ? sql`false` : sql`${length} > ${check.max}::int`;
  const tooFew = check.min === null ? sql`false` : sql`(${length} > 0 and ${length} < ${check.min}::int)`;
  return sql`(case when jsonb_typeof(${value}) = 'array' then (${tooMany} or ${tooFew}) else false end)`;
}

/**
 * Complete as checkPublishable decides: the required elements are among `filled_elements`
 * (migration 0017; it reads a string of only an empty paragraph as empty whatever the element's
 * kind, where checkPublishable does so for rich text only), and no count limit is broken. `a`
 * is the alias of the facets row; count limits read the variant's body (`v`).
 */
function isReady(rules: Completion['rules'], a: Condition): Condition {
  const cases = rules
    .filter((r) => r.checks.length > 0)
    .map((r) => {
      const required = r.checks.filter((c) => c.kind === 'required').map((c) => c.elementId);
      const counts = r.checks.filter((c): c is Extract<ElementCheck, { kind: 'count' }> => c.kind === 'count');
      const filled = required.length === 0 ? sql`true` : sql`${a}.filled_elements @> array[${list(required)}]::text[]`;
      return sql`when ${r.typeId}::uuid then (${filled} and not ${anyOf(counts.map(breaksCount))})`;
    });
  return cases.length === 0 ? sql`true` : sql`(case ${a}.type_id ${sql.join(cases, sql` `)} else true end)`;
}

type Completion = NonNullable<VariantQuery['completion']>;

/** Whether the variant at facets alias `a` is ready (or unfinished), as asked; null when both are asked. */
function readiness(c: Completion, a: Condition): Condition {
  const done = isIn(sql`${a}.step_id`, c.doneStepIds);
  const ready = isReady(c.rules, a);
  if (c.isReady && c.isUnfinished) return sql`not ${done}`;
  return sql`(not ${done} and ${c.isReady ? ready : sql`not ${ready}`})`;
}

/**
 * The completion filter. `readyIds`: the items whose variant is ready (or unfinished) as asked,
 * when they were few enough to read first (see filterVariantPage); else tested row by row.
 */
function completion(c: Completion, readyIds: readonly string[] | null): Condition {
  const wanted: Condition[] = [];
  if (c.isNotTranslated) wanted.push(sql`v.item_id is null`);
  if (c.isAllDone) wanted.push(isIn(sql`v.step_id`, c.doneStepIds));
  if (c.isReady || c.isUnfinished)
    wanted.push(
      readyIds === null
        ? sql`(v.item_id is not null and ${readiness(c, sql`f`)})`
        : sql`i.id = any(${`{${readyIds.join(',')}}`}::uuid[])`,
    );
  return anyOf(wanted);
}

function taxonomy(group: NonNullable<VariantQuery['taxonomies']>[number]): Condition {
  const arrayOf = (id: string) =>
    sql`(case when jsonb_typeof(${valueOf(id)}) = 'array' then ${valueOf(id)} else '[]'::jsonb end)`;
  const hasTerm = group.elementIds.map(
    (id) =>
      sql`exists (select 1 from jsonb_array_elements(${arrayOf(id)}) t where ${isIn(sql`t->>'id'`, group.termIds)})`,
  );
  const isUncategorized = group.isUncategorizedIncluded
    ? [
        sql`(${sql.join([sql`true`, ...group.elementIds.map((id) => sql`jsonb_array_length(${arrayOf(id)}) = 0`)], sql` and `)})`,
      ]
    : [];
  return sql`(v.item_id is not null and ${anyOf([...hasTerm, ...isUncategorized])})`;
}

/**
 * The LIKE pattern of a phrase, folded by the database's own lower() — as the name and
 * `search_text` are — so the two sides agree whatever the locale (JavaScript's toLowerCase
 * folds letters a C-locale database leaves alone).
 */
const patternOf = (phrase: string): Condition => sql`lower(${`%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}::text)`;

/** The search phrase tested on the row at hand: cheap per row, but it reads every row it tests. */
const searchInRow = (phrase: string): Condition =>
  sql`(lower(i.name) like ${patternOf(phrase)} or coalesce(f.search_text, '') like ${patternOf(phrase)})`;

/** The search phrase through the trigram indexes: costs in proportion to the rows that match it. */
function searchByIndex(projectId: string, q: VariantQuery, phrase: string): Condition {
  const pattern = patternOf(phrase);
  // The type filter goes into both halves, so fewer matches are fetched to be joined.
  const ofTypes = (a: Condition) => (q.typeIds === null ? sql`` : sql`and ${isIn(sql`${a}.type_id`, q.typeIds)}`);
  return sql`i.id in (
    select n.id from content_items n
      where n.project_id = ${projectId} and lower(n.name) like ${pattern} ${ofTypes(sql`n`)}
    union all
    select s.item_id from content_variant_facets s
      where s.project_id = ${projectId} and s.language_id = ${q.languageId} and s.search_text like ${pattern}
        ${ofTypes(sql`s`)})`;
}

/** Every filter but the search phrase. */
function conditions(projectId: string, q: VariantQuery, readyIds: readonly string[] | null): Condition[] {
  const out: Condition[] = [sql`i.project_id = ${projectId}`];
  if (q.typeIds) out.push(isIn(sql`i.type_id`, q.typeIds));
  if (q.collectionIds) out.push(isIn(sql`i.collection_id`, q.collectionIds));
  if (q.completion) out.push(completion(q.completion, readyIds));
  if (q.componentTypeIds) {
    const has = q.componentTypeIds.map(
      (t) =>
        sql`jsonb_path_exists(v.body, '$.elements.**.components[*] ? (@.type.id == $t)', jsonb_build_object('t', ${t}::text))`,
    );
    out.push(sql`(v.item_id is null or ${anyOf(has)})`);
  }
  const contributors = sql`coalesce(v.body->'contributors', '[]'::jsonb)`;
  if (q.hasNoContributors) out.push(sql`(v.item_id is null or jsonb_array_length(${contributors}) = 0)`);
  if (q.contributorIds)
    out.push(
      sql`exists (select 1 from jsonb_array_elements(${contributors}) c where ${isIn(sql`c->>'id'`, q.contributorIds)})`,
    );
  if (q.steps)
    out.push(anyOf(q.steps.map((s) => sql`(v.workflow_id = ${s.workflowId} and ${isIn(sql`v.step_id`, s.stepIds)})`)));
  if (q.publishing) {
    const states = {
      published: sql`v.published is not null`,
      unpublished: sql`(v.published is null and v.step_id = ${q.archivedStepId})`,
      not_published_yet: sql`(v.published is null and v.step_id <> ${q.archivedStepId})`,
    };
    out.push(anyOf(q.publishing.map((p) => states[p])));
  }
  for (const group of q.taxonomies ?? []) out.push(taxonomy(group));
  return out;
}

/** The sort value (null for creation order), its SQL type, and the tie-breaker of the order. */
function orderOf(q: VariantQuery): { value: Condition | null; cast: Condition; tie: Condition } {
  const isLeft = q.completion?.isNotTranslated === true;
  // Items without a variant have no variant position: with them, ties go by item creation.
  const variantTie = isLeft ? sql`i.position` : sql`v.position`;
  switch (q.order.by) {
    case 'position':
      return { value: null, cast: sql`text`, tie: sql`i.position` };
    case 'name':
      return { value: sql`lower(i.name)`, cast: sql`text`, tie: sql`i.position` };
    case 'last_modified':
      return {
        value: isLeft ? sql`coalesce(v.last_modified, '-infinity'::timestamptz)` : sql`v.last_modified`,
        cast: sql`timestamptz`,
        tie: variantTie,
      };
    case 'due_date':
      return { value: sql`coalesce(v.body->>'due_date', '')`, cast: sql`text`, tie: variantTie };
  }
}

/**
 * Rows a search first tests in key order (after the other filters) before it turns to the
 * trigram indexes. Testing a row costs about as much as fetching one match through the indexes,
 * so: a phrase that fills the page within these rows is done; one that matches at least
 * `searchWalkOnShare` of them (common enough that the rest of the page is near) gets a second,
 * longer walk, sized from that share, of at most `searchScanMaxRows`; a rarer one goes to the
 * indexes, whose cost grows with the rows that match — few, then.
 */
export const searchScanRows = 1000;
export const searchWalkOnShare = 0.02;
export const searchScanMaxRows = 5000;

/** At most this many items are read first for the completion filter (see fewReady). */
export const completionIdsMax = 5000;

/**
 * The items whose variant is ready (or unfinished) as asked, read from the narrow facets alone,
 * when there are at most completionIdsMax of them (null otherwise, or when count limits need the
 * bodies). A rare status is then one indexed lookup per match instead of a walk that tests every
 * row after the key (the planner, expecting an early stop, walks); a common one fills a page
 * early in that walk.
 */
async function fewReady(db: Kysely<Database>, projectId: string, q: VariantQuery): Promise<string[] | null> {
  const c = q.completion;
  if (!c || !(c.isReady || c.isUnfinished) || c.rules.some((r) => r.checks.some((k) => k.kind === 'count')))
    return null;
  const found = await sql<{ item_id: string }>`
    select a.item_id from content_variant_facets a
    where a.project_id = ${projectId} and a.language_id = ${q.languageId} and ${readiness(c, sql`a`)}
    limit ${completionIdsMax + 1}`.execute(db);
  return found.rows.length > completionIdsMax ? null : found.rows.map((r) => r.item_id);
}

type Row = { id: string; k: string | null; t: string | number; scanned?: string | number };

export async function filterVariantPage(
  db: Kysely<Database>,
  projectId: string,
  q: VariantQuery,
  request: { after: VariantQueryKey | null; limit: number },
  /** Rows of the first walk (default searchScanRows; 0: the indexes at once). */
  options: { scanRows?: number } = {},
): Promise<VariantQueryPage> {
  const scanRows = options.scanRows ?? searchScanRows;
  const { value, cast, tie } = orderOf(q);
  const where = conditions(projectId, q, await fewReady(db, projectId, q));
  const isDesc = q.order.direction === 'desc';
  const direction = isDesc ? sql`desc` : sql`asc`;
  const after = request.after;
  if (after) {
    const op = isDesc ? sql`<` : sql`>`;
    if (value === null) where.push(sql`${tie} ${op} ${after[0]}::int8`);
    else where.push(sql`(${value}, ${tie}) ${op} (${String(after[0])}::${cast}, ${after[1]}::int8)`);
  }
  const join = q.completion?.isNotTranslated === true ? sql`left join` : sql`join`;
  const order = value === null ? sql`${tie} ${direction}` : sql`${value} ${direction}, ${tie} ${direction}`;
  // The variant's facets (migration 0017) only where a search or the completion rules read them.
  const facets =
    q.searchPhrase !== null || q.completion !== null
      ? sql`left join content_variant_facets f
          on f.project_id = v.project_id and f.item_id = v.item_id and f.language_id = v.language_id`
      : sql``;
  const from = sql`from content_items i
    ${join} content_variants v
      on v.project_id = i.project_id and v.item_id = i.id and v.language_id = ${q.languageId}
    ${facets}`;
  const columns = sql`i.id, ${value === null ? sql`null` : sql`(${value})::text`} as k, ${tie} as t`;
  const limit = request.limit + 1;
  let rows: Row[] | null = null;
  if (q.searchPhrase !== null) {
    const phrase = q.searchPhrase;
    // The next rows in key order, tested one by one; `scanned` tells whether the walk ran out.
    const walk = async (scan: number) => {
      const walked = await sql<Row>`
        with w as (
          select ${columns}, ${value === null ? sql`null` : value} as o, ${searchInRow(phrase)} as m
          ${from} where ${sql.join(where, sql` and `)} order by ${order} limit ${scan})
        select id, k, t, (select count(*) from w) as scanned from w where m
        order by ${value === null ? sql`t ${direction}` : sql`o ${direction}, t ${direction}`} limit ${limit}`.execute(
        db,
      );
      const scanned = Number(walked.rows[0]?.scanned ?? scan);
      return { rows: walked.rows, isDone: walked.rows.length === limit || scanned < scan };
    };
    // scanRows 0 (tests): straight to the indexes.
    const first = scanRows > 0 ? await walk(scanRows) : { rows: [], isDone: false };
    const share = scanRows > 0 ? first.rows.length / scanRows : 0;
    if (first.isDone) rows = first.rows;
    else if (share >= searchWalkOnShare) {
      const longer = Math.min(searchScanMaxRows, Math.ceil((1.5 * limit) / share));
      const second = longer > scanRows ? await walk(longer) : null;
      if (second?.isDone) rows = second.rows;
    }
    if (rows === null) where.push(searchByIndex(projectId, q, phrase));
  }
  rows ??= (
    await sql<Row>`select ${columns} ${from} where ${sql.join(where, sql` and `)} order by ${order} limit ${limit}`.execute(
      db,
    )
  ).rows;
  const page = rows.slice(0, request.limit);
  const last = page.at(-1);
  const hasMore = rows.length > request.limit && last !== undefined;
  return {
    itemIds: page.map((r) => r.id),
    next: hasMore ? (value === null ? [Number(last.t)] : [last.k ?? '', Number(last.t)]) : null,
  };
}
