// Hostile GraphQL documents (issue 27, findings 2 and 6): how long a GraphQL listener needs to
// answer each generator of services/graphql/src/testing/hostile-queries.ts. The listener runs in
// a child process over the demo model and content on PGlite, plus 20 articles linking 20 authors; a request unanswered after
// --timeout seconds counts as "never answered" and the child (whose event loop is stuck, so
// SIGTERM would wait) is killed and started again. Each document is sent --runs times as the same
// text with a new variables object (so the response cache misses and graphql-jit compiles it
// from the second run on). Prints a table; asserts nothing.
// Run: node scripts/bench/graphql-hostile.ts [--timeout 20] [--runs 3]
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  aliasedFields,
  fragmentBomb,
  limitByDefault,
  limitLiteral,
  manyFragments,
  nestedFragmentBomb,
  nestedLinks,
  nestedLists,
  repeatedField,
  repeatedLinks,
  wideLinkedItems,
} from '../../services/graphql/src/testing/hostile-queries.ts';
import {
  listenGraphql,
  seedDemoContent,
  seedDemoModel,
  startStack,
  type Stack,
} from '../../services/graphql/src/testing/graphql-stack.ts';

if (process.argv.includes('--serve')) {
  const stack = await startStack();
  await seedDemoModel(stack.core, stack.projectId);
  await seedDemoContent(stack);
  await seedLinkedArticles(stack);
  const listening = await listenGraphql(stack);
  console.log(JSON.stringify({ url: `${listening.url}/${stack.projectId}` }));
} else {
  await main();
}

/** 20 more articles, each linking 20 authors: the 20 × 20 linked items the wide generator reads. */
async function seedLinkedArticles(stack: Stack): Promise<void> {
  const mapi = (path: string, body?: unknown, method = 'POST') => stack.managementJson(path, { method, body });
  const item = async (codename: string, type: string, elements: unknown[]) => {
    await mapi('/items', { name: codename, codename, type: { codename: type } });
    await mapi(`/items/codename/${codename}/variants/codename/default`, { elements }, 'PUT');
    await mapi(`/items/codename/${codename}/variants/codename/default/publish`, undefined, 'PUT');
  };
  const authors = Array.from({ length: 20 }, (_, i) => `bench_author_${i}`);
  for (const a of authors) await item(a, 'author', [{ element: { codename: 'name' }, value: `Author ${a}` }]);
  for (let i = 0; i < 20; i += 1) {
    await item(`bench_article_${i}`, 'article', [
      { element: { codename: 'title' }, value: `Article ${i}` },
      { element: { codename: 'authors' }, value: authors.map((codename) => ({ codename })) },
    ]);
  }
  await stack.catchUp();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: { timeout: { type: 'string', default: '20' }, runs: { type: 'string', default: '3' } },
  });
  const timeoutMs = Number(values.timeout) * 1000;
  const runs = Number(values.runs);
  const link = { link: 'authors' };
  const generators: [string, string][] = [
    ['linked items nested 18 levels', nestedLinks(18, link)],
    ['linked items nested 66 levels', nestedLinks(66, link)],
    ['1,990 nested lists in an argument', nestedLists(1_990)],
    ['8 kB of distinct aliases', aliasedFields(8_000)],
    ['8 kB of one repeated _system_ { codename }', repeatedField(8_000, '_system_ { codename }')],
    ['8 kB of one repeated linked-items field', repeatedLinks(8_000, link)],
    ['fragment bomb, 30 fragments × 2 spreads', fragmentBomb(30)],
    ['nested fragment bomb, 40 fragments', nestedFragmentBomb(40, link)],
    ['100 fragments of one field', manyFragments(100, link)],
    ['600 aliases on 20 × 20 linked items', wideLinkedItems(600, { ...link, type: 'Author', field: 'name' })],
    ['limit 20 as a literal (finding 6)', limitLiteral(link)],
    ['limit 20 as a variable default (finding 6)', limitByDefault(link)],
  ];
  let server = await startServer();
  const rows: string[][] = [];
  for (const [name, query] of generators) {
    for (let run = 1; run <= runs; run += 1) {
      const started = performance.now();
      const answer = await ask(server.url, query, run, timeoutMs);
      const ms = performance.now() - started;
      if (answer === null) {
        rows.push([name, String(query.length), String(run), `never answered (> ${timeoutMs / 1000} s)`, '', '']);
        server.child.kill('SIGKILL');
        server = await startServer();
        break;
      }
      rows.push([name, String(query.length), String(run), ms.toFixed(1), answer.outcome, answer.complexity]);
    }
  }
  server.child.kill('SIGKILL');
  printTable(['generator', 'bytes', 'run', 'ms', 'answer', 'X-Complexity'], rows);
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (!line.startsWith('{')) continue;
    const { url } = JSON.parse(line) as { url: string };
    // The first request builds the schema and warms the process: not part of any row.
    await ask(url, '{ article_All { items { title } } }', 0, 60_000);
    return { child, url };
  }
  throw new Error('the GraphQL listener did not start');
}

async function ask(
  url: string,
  query: string,
  run: number,
  timeoutMs: number,
): Promise<{ outcome: string; complexity: string } | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { run } }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const body = JSON.parse(text) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
    const code = body.errors?.[0]?.extensions?.code;
    return {
      outcome: `${res.status} ${code ?? (body.data === undefined ? '?' : `data, ${(text.length / 1024).toFixed(0)} KiB`)}`,
      complexity: res.headers.get('x-complexity') ?? '',
    };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return null;
    throw error;
  }
}

function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}
