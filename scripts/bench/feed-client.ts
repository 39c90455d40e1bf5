// The items-feed scenario of the Delivery benchmark, in its own process: pages through
// GET /{project}/items-feed following X-Continuation until the last page, and prints
// {"items", "pages", "seconds", "errors"} as JSON.
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
const started = performance.now();
do {
  const response: Response = await fetch(`${baseUrl}/${projectId}/items-feed`, {
    headers: continuation === null ? {} : { 'x-continuation': continuation },
  });
  if (response.status !== 200) {
    errors += 1;
    await response.arrayBuffer();
    break;
  }
  const body = (await response.json()) as { items: unknown[] };
  items += body.items.length;
  pages += 1;
  continuation = response.headers.get('x-continuation');
} while (continuation !== null);
console.log(JSON.stringify({ items, pages, seconds: (performance.now() - started) / 1000, errors }));
