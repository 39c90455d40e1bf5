// The items-feed scenario of the Delivery and search-index benchmarks, in its own process: pages
// through GET /{project}/items-feed following X-Continuation until the last page, and prints
// {"items", "pages", "seconds", "errors", "pageP50Ms", "pageP99Ms"} as JSON (the page times are
// from request to the whole body read).
// Run: node scripts/bench/feed-client.ts <delivery URL> <project id>
const [baseUrl, projectId] = process.argv.slice(2);
if (baseUrl === undefined || projectId === undefined) {
  console.error('Usage: node scripts/bench/feed-client.ts <delivery URL> <project id>');
  process.exit(2);
}
let continuation: string | null = null;
let items = 0;
let pages = 0;
let errors = 0;
const pageMs: number[] = [];
const started = performance.now();
do {
  const pageStarted = performance.now();
  const response: Response = await fetch(`${baseUrl}/${projectId}/items-feed`, {
    headers: continuation === null ? {} : { 'x-continuation': continuation },
  });
  if (response.status !== 200) {
    errors += 1;
    await response.arrayBuffer();
    break;
  }
  const body = (await response.json()) as { items: unknown[] };
  pageMs.push(performance.now() - pageStarted);
  items += body.items.length;
  pages += 1;
  continuation = response.headers.get('x-continuation');
} while (continuation !== null);
const seconds = (performance.now() - started) / 1000;
pageMs.sort((a, b) => a - b);
const at = (p: number) => pageMs[Math.min(pageMs.length - 1, Math.floor((pageMs.length * p) / 100))] ?? Number.NaN;
console.log(JSON.stringify({ items, pages, seconds, errors, pageP50Ms: at(50), pageP99Ms: at(99) }));
