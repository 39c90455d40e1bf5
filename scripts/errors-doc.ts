// Rewrites the catalogue table of docs/errors.md from packages/errors/src/catalogue.ts.
// Run with: node scripts/errors-doc.ts  (the unit test in packages/errors checks they agree).
import { readFileSync, writeFileSync } from 'node:fs';
import { catalogue, statusOfKind } from '../packages/errors/src/index.ts';

const path = new URL('../docs/errors.md', import.meta.url);
const doc = readFileSync(path, 'utf8');
const header = '| code | kind | status | management | delivery | message |\n| --- | --- | --- | --- | --- | --- |\n';
const start = doc.indexOf(header);
if (start < 0) throw new Error('docs/errors.md has no catalogue table header');
const rows = Object.entries(catalogue).map(
  ([code, e]) =>
    `| \`${code}\` | ${e.kind} | ${statusOfKind[e.kind]} | ${e.management} | ${e.delivery} | ${e.message.replace(/\|/g, '\\|')} |`,
);
writeFileSync(path, `${doc.slice(0, start)}${header}${rows.join('\n')}\n`);
console.log(`docs/errors.md: ${rows.length} entries`);
