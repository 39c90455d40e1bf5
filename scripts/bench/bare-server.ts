// The ceiling of the Delivery benchmark: a minimal node:http server, in its own process, answering
// GET /item and GET /list with exactly the bytes of the files given (the Delivery answers the
// benchmark recorded). Prints its URL on stdout.
// Run: node scripts/bench/bare-server.ts <item body file> <list body file>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [itemFile, listFile] = process.argv.slice(2);
if (itemFile === undefined || listFile === undefined) {
  console.error('Usage: node scripts/bench/bare-server.ts <item body file> <list body file>');
  process.exit(2);
}
const bodies: Record<string, Buffer> = { '/item': readFileSync(itemFile), '/list': readFileSync(listFile) };
const server = createServer((req, res) => {
  const body = bodies[req.url ?? ''];
  if (body === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null) console.log(`http://127.0.0.1:${address.port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
