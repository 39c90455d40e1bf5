import fc from 'fast-check';
import type { FuzzRequest } from './client.ts';
import { bodyFrom, encodedBody, hostileJson, hostileString } from './hostile.ts';
import type { Known } from './target.ts';

/*
 * The MCP family (issue 34): JSON-RPC sent to `/mcp` and `/{environment_id}/mcp` of the Management
 * listener. Hostile JSON-RPC (wrong versions, ids, methods, params, batches, garbage), tool calls
 * of known tools with mutated or oversized arguments, unknown tools, hostile resource URIs and
 * prompt arguments, and the transport's own checks (Accept, Content-Type, protocol version). A
 * refusal is a 4xx in the Management body or a JSON-RPC error; a tool's own refusal is a 200
 * isError result; never a 5xx.
 */

/** Tools that only read, and tools that may write (whose accepted calls may change the store). */
const readTools = [
  'get-initial-context',
  'list-content-types-mapi',
  'get-type-mapi',
  'get-item-mapi',
  'filter-variants-mapi',
  'get-latest-variant-mapi',
  'list-variants-type-mapi',
  'bulk-get-items-variants-mapi',
  'query-delivery',
  'list-assets-mapi',
  'get-taxonomy-group-mapi',
];
const writeTools = [
  'add-content-type-mapi',
  'add-content-item-mapi',
  'upsert-language-variant-mapi',
  'publish-variant-mapi',
  'change-variant-workflow-step-mapi',
  'create-variant-version-mapi',
  'upload-asset-mapi',
  'add-taxonomy-group-mapi',
  'unpublish-variant-mapi',
  'delete-content-item-mapi',
];

/** Arguments close to valid ones, so calls reach the core, then mutated by bodyFrom. */
function argumentsOf(k: Known): fc.Arbitrary<unknown> {
  const ref = (codenames: readonly string[]) =>
    fc.oneof(
      fc.constantFrom(...codenames.map((codename) => ({ codename }))),
      hostileString.map((codename) => ({ codename })),
      fc.constantFrom({ id: 'not-a-uuid' }, { id: '11111111-1111-4111-8111-111111111111' }, {}),
    );
  const item = ref(k.itemCodenames);
  const language = ref(k.languageCodenames);
  return fc.oneof(
    fc.record({ item, language }),
    fc.record({ type: ref(k.typeCodenames) }),
    fc.record({
      item,
      language,
      elements: fc.array(fc.record({ element: ref(k.elementCodenames), value: hostileJson }), { maxLength: 3 }),
    }),
    fc.record({ name: hostileString, type: ref(k.typeCodenames) }),
    fc.record({
      name: hostileString,
      elements: fc.array(fc.record({ type: hostileString, name: hostileString }), { maxLength: 3 }),
    }),
    fc.record({ language, search_phrase: hostileString }),
    fc.record({
      url: fc.constantFrom('http://127.0.0.1/', 'http://169.254.169.254/latest', 'file:///etc/passwd', 'not a url'),
      file_name: hostileString,
    }),
    fc.record({ data_base64: fc.constantFrom('', '!!!', 'aGVsbG8=', 'a'.repeat(5)), content_type: hostileString }),
    fc.record({
      filters: fc.array(
        fc.record({
          property: hostileString,
          operator: hostileString,
          values: fc.array(hostileString, { maxLength: 3 }),
        }),
        { maxLength: 3 },
      ),
    }),
    hostileJson,
  );
}

/** Oversized arguments: past the element bound of a call, or deep, or long strings (under the body limit). */
const oversized = fc.constantFrom<unknown>(
  { elements: Array.from({ length: 25_000 }, () => 0) },
  { name: 'x'.repeat(900_000), type: { codename: 'article' } },
  { name: 'a', elements: [{ type: 'text', name: 'b'.repeat(50_000) }] },
  JSON.parse(`${'{"a":'.repeat(60)}1${'}'.repeat(60)}`) as unknown,
);

/** A JSON-RPC message: well-formed ones with hostile parts, and broken ones. */
function messages(k: Known): fc.Arbitrary<{ message: unknown; isWrite: boolean }> {
  const id = fc.oneof(fc.integer(), fc.constantFrom<unknown>('a', null, { x: 1 }, [], 1.5, true));
  const call = (names: fc.Arbitrary<string>, args: fc.Arbitrary<unknown>, isWrite: boolean) =>
    fc.record({ id, name: names, args }).map(({ id, name, args }) => ({
      message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
      isWrite,
    }));
  const plain = (method: string, params: fc.Arbitrary<unknown>) =>
    fc
      .record({ id, params })
      .map(({ id, params }) => ({ message: { jsonrpc: '2.0', id, method, params }, isWrite: false }));
  return fc.oneof(
    { weight: 3, arbitrary: call(fc.constantFrom(...readTools), bodyFrom(argumentsOf(k)), false) },
    { weight: 3, arbitrary: call(fc.constantFrom(...writeTools), bodyFrom(argumentsOf(k)), true) },
    { weight: 1, arbitrary: call(fc.constantFrom(...readTools, ...writeTools), oversized, true) },
    { weight: 1, arbitrary: call(hostileString, hostileJson, false) },
    {
      weight: 1,
      arbitrary: plain(
        'initialize',
        fc.oneof(
          hostileJson,
          fc.constant({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'f', version: '1' } }),
        ),
      ),
    },
    { weight: 1, arbitrary: plain('tools/list', fc.oneof(fc.constant({}), hostileJson)) },
    {
      weight: 1,
      arbitrary: plain(
        'resources/read',
        fc
          .oneof(
            hostileString,
            fc.constantFrom('lectern://model', 'lectern://types/article', 'lectern://types/%00', 'file:///etc/passwd'),
          )
          .map((uri) => ({ uri })),
      ),
    },
    {
      weight: 1,
      arbitrary: plain(
        'prompts/get',
        fc.record({ name: fc.constantFrom('translate-item', 'draft-item', 'nope'), arguments: hostileJson }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ method: hostileString, params: hostileJson })
        .map((m) => ({ message: { jsonrpc: '2.0', id: 1, ...m }, isWrite: false })),
    },
    {
      weight: 1,
      arbitrary: fc.array(hostileJson, { maxLength: 3 }).map((batch) => ({ message: batch, isWrite: false })),
    },
    { weight: 1, arbitrary: hostileJson.map((message) => ({ message, isWrite: false })) },
  );
}

/** Requests of the MCP family to the Management listener. */
export function mcpRequests(k: Known, key: string): fc.Arbitrary<FuzzRequest> {
  const path = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`/${k.projectId}/mcp`) },
    { weight: 2, arbitrary: fc.constant('/mcp') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '/not-a-project/mcp',
        '/00000000-0000-0000-0000-000000000000/mcp',
        '/mcp/',
        '/%zz/mcp',
      ),
    },
  );
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer x.y.z', `Basic ${key}`) },
  );
  const accept = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json, text/event-stream') },
    { weight: 1, arbitrary: fc.constantFrom('', 'application/json', 'text/event-stream', '*/*') },
  );
  const version = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | null>(null) },
    { weight: 2, arbitrary: fc.constant<string | null>('2025-11-25') },
    { weight: 1, arbitrary: fc.constantFrom<string | null>('1999-01-01', 'x', '') },
  );
  return fc
    .tuple(
      messages(k).chain((m) =>
        fc
          .oneof(
            {
              weight: 6,
              arbitrary: fc.constant({
                headers: { 'content-type': 'application/json' } as Record<string, string>,
                body: JSON.stringify(m.message) ?? 'null',
              }),
            },
            { weight: 1, arbitrary: encodedBody(fc.constant(m.message)) },
          )
          .map((encoded) => ({ ...encoded, isWrite: m.isWrite })),
      ),
      path,
      authorization,
      accept,
      version,
      fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT'),
    )
    .map(([encoded, path, auth, accept, version, method]) => ({
      api: 'management' as const,
      family: 'mcp',
      method,
      path,
      headers: {
        ...encoded.headers,
        ...(auth === '' ? {} : { authorization: auth }),
        ...(accept === '' ? {} : { accept }),
        ...(version === null ? {} : { 'mcp-protocol-version': version }),
      },
      ...(method === 'GET' || encoded.body === undefined ? {} : { body: encoded.body }),
      isWrite: encoded.isWrite,
    }));
}
