import fc from 'fast-check';
import type { FuzzRequest } from './client.ts';
import { bodyFrom, encodedBody, encodeForUrl, headerValue, hostileString, queryString, segment } from './hostile.ts';
import type { Known } from './target.ts';

/*
 * Malformed requests for every Management route family: identifiers of every form (known ones,
 * so requests reach the handlers, and hostile ones), bodies that are valid ones with a node
 * mutated or plain garbage, in any encoding, and hostile headers. DELETE only ever names hostile
 * identifiers, so the seeded content stays for the rest of the run.
 */

const uuidLike = fc.constantFrom(
  '11111111-1111-4111-8111-111111111111',
  '00000000-0000-0000-0000-000000000000',
  'ABCDEF01-2345-4678-9ABC-DEF012345678',
  'not-a-uuid',
);

/** A path segment that names nothing that exists. */
const hostileSegment = fc.oneof(
  hostileString.map((s) => encodeForUrl(s, 'encoded') || '%20'),
  hostileString.map((s) => encodeForUrl(s, 'loose') || '%20'),
  fc.constantFrom('%E0%A4%A', '%zz', '%00', 'a%00b', 'x'.repeat(300)),
  uuidLike,
);

/** `<id>`, `codename/<codename>` or `external-id/<external id>`, each known or hostile. */
function identifier(ids: readonly string[], codenames: readonly string[], externalIds: readonly string[]) {
  return fc.oneof(
    segment([...ids, '11111111-1111-4111-8111-111111111111']),
    segment(codenames).map((s) => `codename/${s}`),
    segment(externalIds.length > 0 ? externalIds : ['none']).map((s) => `external-id/${s}`),
  );
}

function hostileIdentifier() {
  return fc.oneof(
    hostileSegment,
    hostileSegment.map((s) => `codename/${s}`),
    hostileSegment.map((s) => `external-id/${s}`),
  );
}

interface Route {
  readonly family: string;
  readonly methods: readonly string[];
  readonly path: fc.Arbitrary<string>;
  /** A valid body to mutate, for the methods that take one. */
  readonly body?: fc.Arbitrary<unknown>;
  /** Query parameter names and values the route reads. */
  readonly query?: readonly [readonly string[], readonly string[]];
}

function routes(k: Known): Route[] {
  const item = identifier(k.itemIds, k.itemCodenames, k.itemExternalIds);
  const lang = identifier(k.languageIds, k.languageCodenames, ['es']);
  const type = identifier(k.typeIds, k.typeCodenames, ['article']);
  const ref = (codenames: readonly string[]) =>
    fc.oneof(
      fc.constantFrom(...codenames).map((codename) => ({ codename })),
      uuidLike.map((id) => ({ id })),
      hostileString.map((external_id) => ({ external_id })),
    );
  const paging: readonly [readonly string[], readonly string[]] = [
    ['continuationToken', 'x'],
    ['', 'eyJ0IjoxfQ', 'garbage', '%00'],
  ];
  const elements = fc.constant([
    { element: { codename: 'title' }, value: 'Fuzzed' },
    { element: { codename: 'body' }, value: '<p>Fuzz <strong>body</strong></p>' },
    { element: { codename: 'count' }, value: 2 },
    { element: { codename: 'date' }, value: '2024-01-01T00:00:00Z' },
    { element: { codename: 'kind' }, value: [{ codename: 'blog' }] },
    { element: { codename: 'related' }, value: [{ codename: 'home' }] },
    { element: { codename: 'topics' }, value: [{ codename: 'tea' }] },
    { element: { codename: 'slug' }, mode: 'custom', value: 'fuzz-slug' },
    { element: { codename: 'widget' }, value: '{"a":1}', searchable_value: 'a' },
    { element: { codename: 'image' }, value: [{ id: k.assetIds[0] }] },
    { element: { codename: 'meta_title' }, value: 'Meta' },
  ]);
  const modelElements = fc.constant([
    { name: 'Title', codename: 'title', type: 'text' },
    { name: 'Pick', type: 'multiple_choice', mode: 'single', options: [{ name: 'A' }] },
  ]);
  const terms = fc.constant([{ name: 'Term', codename: 'term', terms: [{ name: 'Child', terms: [] }] }]);
  return [
    {
      family: 'items',
      methods: ['GET', 'POST', 'PUT'],
      path: fc.oneof(
        fc.constant('/items'),
        item.map((i) => `/items/${i}`),
      ),
      body: fc.record({
        name: fc.constantFrom('Fuzz item', 'x'),
        codename: fc.constantFrom('fuzz_item', 'home'),
        type: ref(k.typeCodenames),
        external_id: fc.constantFrom('fuzz', 'home'),
        collection: ref(k.collectionCodenames),
      }),
      query: paging,
    },
    {
      family: 'variants',
      methods: ['GET', 'PUT'],
      path: fc.oneof(
        item.map((i) => `/items/${i}/variants`),
        fc.tuple(item, lang).map(([i, l]) => `/items/${i}/variants/${l}`),
        fc.tuple(item, lang).map(([i, l]) => `/items/${i}/variants/${l}/published`),
        fc
          .tuple(
            item,
            lang,
            fc.constantFrom(
              'publish',
              'unpublish-and-archive',
              'cancel-scheduled-publish',
              'cancel-scheduled-unpublish',
              'new-version',
              'change-workflow',
            ),
          )
          .map(([i, l, a]) => `/items/${i}/variants/${l}/${a}`),
        fc.tuple(item, lang, segment(k.stepIds)).map(([i, l, s]) => `/items/${i}/variants/${l}/workflow/${s}`),
        type.map((t) => `/types/${t}/variants`),
        segment(k.collectionCodenames).map((c) => `/collections/codename/${c}/variants`),
        segment(k.spaceCodenames).map((s) => `/spaces/codename/${s}/variants`),
      ),
      body: fc.oneof(
        fc.record({ elements }),
        fc.record({
          scheduled_to: fc.constantFrom('2030-01-01T00:00:00Z', 'tomorrow'),
          display_timezone: hostileString,
        }),
        fc.record({
          workflow_identifier: fc.constantFrom(...k.workflowIds).map((id) => ({ id })),
          step_identifier: fc.constantFrom(...k.stepIds).map((id) => ({ id })),
        }),
      ),
      query: paging,
    },
    {
      family: 'types',
      methods: ['GET', 'POST', 'PATCH'],
      path: fc.oneof(
        fc.constant('/types'),
        type.map((t) => `/types/${t}`),
      ),
      body: fc.oneof(
        fc.record({ name: fc.constant('Fuzz type'), codename: fc.constant('fuzz_type'), elements: modelElements }),
        fc.constant([
          { op: 'replace', path: '/name', value: 'Article' },
          { op: 'addInto', path: '/elements', value: { name: 'Extra', type: 'number' } },
          { op: 'remove', path: '/elements/codename:count' },
        ]),
      ),
      query: paging,
    },
    {
      family: 'snippets',
      methods: ['GET', 'POST', 'PATCH'],
      path: fc.oneof(
        fc.constant('/snippets'),
        identifier([], k.snippetCodenames, []).map((s) => `/snippets/${s}`),
      ),
      body: fc.oneof(
        fc.record({
          name: fc.constant('Fuzz snippet'),
          codename: fc.constant('fuzz_snippet'),
          elements: modelElements,
        }),
        fc.constant([{ op: 'replace', path: '/name', value: 'SEO' }]),
      ),
    },
    {
      family: 'taxonomies',
      methods: ['GET', 'POST', 'PATCH'],
      path: fc.oneof(
        fc.constant('/taxonomies'),
        identifier([], k.taxonomyCodenames, ['topics']).map((t) => `/taxonomies/${t}`),
      ),
      body: fc.oneof(
        fc.record({ name: fc.constant('Fuzz taxonomy'), codename: fc.constant('fuzz_tax'), terms }),
        fc.constant([
          { op: 'replace', property_name: 'name', value: 'Topics' },
          { op: 'addInto', reference: { codename: 'tea' }, value: { name: 'Black', terms: [] } },
          { op: 'remove', reference: { codename: 'green' } },
        ]),
      ),
      query: paging,
    },
    {
      family: 'languages',
      methods: ['GET', 'POST', 'PATCH'],
      path: fc.oneof(
        fc.constant('/languages'),
        lang.map((l) => `/languages/${l}`),
      ),
      body: fc.oneof(
        fc.record({ name: fc.constant('Fuzz'), codename: fc.constant('fuzz-FZ'), is_active: fc.boolean() }),
        fc.constant([
          { op: 'replace', property_name: 'name', value: 'Spanish' },
          { op: 'replace', property_name: 'fallback_language', value: { codename: 'default' } },
        ]),
      ),
      query: paging,
    },
    {
      family: 'collections',
      methods: ['GET', 'PATCH'],
      path: fc.constant('/collections'),
      body: fc.constant([
        { op: 'addInto', value: { name: 'More', codename: 'more' } },
        { op: 'move', reference: { codename: 'blog' }, before: { codename: 'default' } },
        { op: 'replace', reference: { codename: 'blog' }, property_name: 'name', value: 'Blog' },
      ]),
    },
    {
      family: 'workflows',
      methods: ['GET', 'POST', 'PUT'],
      path: fc.oneof(
        fc.constant('/workflows'),
        fc.constant('/workflow'),
        identifier(k.workflowIds, ['default'], []).map((w) => `/workflows/${w}`),
      ),
      body: fc.record({
        name: fc.constant('Fuzz flow'),
        scopes: fc.constant([{ content_types: [{ codename: 'article' }] }]),
        steps: fc.constant([{ name: 'Draft', codename: 'fuzz_draft', color: 'red', transitions_to: [] }]),
        published_step: fc.constant({ name: 'Published', codename: 'published' }),
        archived_step: fc.constant({ name: 'Archived', codename: 'archived' }),
      }),
    },
    {
      family: 'spaces',
      methods: ['GET', 'POST', 'PATCH'],
      path: fc.oneof(
        fc.constant('/spaces'),
        identifier([], k.spaceCodenames, []).map((s) => `/spaces/${s}`),
      ),
      body: fc.oneof(
        fc.record({
          name: fc.constant('Fuzz space'),
          web_spotlight_root_item: ref(k.itemCodenames),
          collections: fc.array(ref(k.collectionCodenames), { maxLength: 2 }),
        }),
        fc.constant([
          { op: 'replace', property_name: 'name', value: 'Main' },
          { op: 'replace', property_name: 'web_spotlight_root_item', value: { codename: 'home' } },
        ]),
      ),
    },
    {
      family: 'webhooks',
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      path: fc.oneof(
        fc.constantFrom('/webhooks-vnext', '/webhooks'),
        fc
          .tuple(
            fc.constantFrom('/webhooks-vnext', '/webhooks'),
            fc.oneof(fc.uuid(), fc.string({ maxLength: 8 })),
            fc.constantFrom('', '/enable', '/disable', '/reset', '/url', '/notifications?filter=failing'),
          )
          .map(([base, id, rest]) => `${base}/${encodeURIComponent(id)}${rest}`),
      ),
      body: fc.record({
        name: fc.oneof(fc.constant('Fuzz hook'), fc.string()),
        url: fc.oneof(fc.constant('https://example.com/hook'), fc.string()),
        secret: fc.oneof(fc.constant('s3cret'), fc.string()),
        headers: fc.array(fc.record({ key: fc.string({ maxLength: 12 }), value: fc.string({ maxLength: 12 }) }), {
          maxLength: 3,
        }),
        delivery_triggers: fc.oneof(
          fc.constant({ slot: 'published', events: 'all' }),
          fc.record({
            slot: fc.constantFrom('published', 'preview', 'live'),
            events: fc.constantFrom('all', 'specific'),
            content_item: fc.record({
              enabled: fc.boolean(),
              actions: fc.array(fc.record({ action: fc.constantFrom('published', 'created', 'nope') }), {
                maxLength: 2,
              }),
              filters: fc.record({ collections: fc.array(ref(k.collectionCodenames), { maxLength: 2 }) }),
            }),
          }),
        ),
        triggers: fc.constant({ delivery_api_content_changes: [{ type: 'taxonomy', operations: ['upsert'] }] }),
      }),
    },
    {
      family: 'assets',
      methods: ['GET', 'POST', 'PUT'],
      path: fc.oneof(
        fc.constant('/assets'),
        identifier(k.assetIds, k.assetCodenames, ['photo']).map((a) => `/assets/${a}`),
      ),
      body: fc.record({
        file_reference: fc.constantFrom(...k.fileIds).map((id) => ({ id, type: 'internal' })),
        title: fc.constantFrom('Photo', null),
        descriptions: fc.constant([{ language: { codename: 'default' }, description: 'A photo' }]),
        folder: ref(['images']),
        collection: fc.constant({ reference: { codename: 'default' } }),
        elements: fc.constant([]),
      }),
      query: paging,
    },
    {
      family: 'folders',
      methods: ['GET', 'POST', 'PATCH'],
      path: fc.constant('/folders'),
      body: fc.oneof(
        fc.constant({ folders: [{ name: 'More', folders: [] }] }),
        fc.constant([
          { op: 'addInto', reference: { codename: 'images' }, value: { name: 'Sub', folders: [] } },
          { op: 'rename', reference: { codename: 'images' }, value: 'Images' },
          { op: 'remove', reference: { codename: 'nope' } },
        ]),
      ),
    },
    {
      family: 'environment',
      methods: ['GET', 'PATCH'],
      path: fc.constant(''),
      body: fc.constant([{ op: 'rename_environment', value: 'Production' }]),
    },
    {
      family: 'v1',
      methods: ['GET', 'POST', 'PUT'],
      path: fc.oneof(
        fc.constant('/items'),
        item.map((i) => `/items/${i}`),
        fc.tuple(item, lang).map(([i, l]) => `/items/${i}/variants/${l}`),
        fc.constant('/assets'),
        identifier(k.assetIds, [], ['photo']).map((a) => `/assets/${a}`),
      ),
      body: fc.oneof(
        fc.record({ name: fc.constant('V1 item'), type: ref(k.typeCodenames) }),
        fc.record({ elements }),
        fc.record({ file_reference: fc.constantFrom(...k.fileIds).map((id) => ({ id, type: 'internal' })) }),
      ),
      query: paging,
    },
  ];
}

const methodsAnyRoute = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'FUZZ'];

function headersOf(key: string): fc.Arbitrary<Record<string, string>> {
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${key}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'Bearer', `bearer ${key}`, `Basic ${key}`, `Bearer ${key}x`, 'Bearer lct_mgmt_x'),
    },
  );
  const extra = fc.dictionary(
    fc.constantFrom('x-continuation', 'accept', 'accept-encoding', 'if-none-match', 'x-kc-sdkid', 'accept-charset'),
    hostileString.map(headerValue),
    { maxKeys: 2 },
  );
  return fc.tuple(authorization, extra).map(([auth, rest]) => (auth === '' ? rest : { ...rest, authorization: auth }));
}

/** Requests for one family of the Management API (or every family: `all`). */
export function managementRequests(k: Known, key: string, family: string): fc.Arbitrary<FuzzRequest> {
  const base = `/v2/projects/${k.projectId}`;
  const table = routes(k);
  const chosen = table.filter((r) => r.family === family);
  if (chosen.length === 0) return specialRequests(k, key, family);
  const route = chosen[0] as Route;
  const bodies = encodedBody(bodyFrom(route.body ?? fc.constant({})));
  const query = route.query ? queryString(route.query[0], route.query[1]) : fc.constant('');
  const root = route.family === 'v1' ? `/v1/projects/${k.projectId}` : base;
  return fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...route.methods) },
        { weight: 1, arbitrary: fc.constantFrom(...methodsAnyRoute) },
      ),
      route.path,
      hostileIdentifier(),
      query,
      headersOf(key),
      bodies,
    )
    .map(([method, path, hostile, qs, headers, encoded]): FuzzRequest => {
      // DELETE only names what does not exist, so the seed stays.
      const target = method === 'DELETE' ? `${path.replace(/\/[^/]*$/, '')}/${hostile}` : path;
      const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'DELETE';
      return {
        api: 'management',
        family: route.family,
        method,
        path: `${root}${target}${qs}`,
        headers: { ...headers, ...(hasBody ? encoded.headers : {}) },
        ...(hasBody && encoded.body !== undefined ? { body: encoded.body } : {}),
        isWrite: method !== 'GET' && method !== 'HEAD',
      };
    });
}

/** Families outside the project router: files, binaries, admin, unknown paths and malformed HTTP. */
function specialRequests(k: Known, key: string, family: string): fc.Arbitrary<FuzzRequest> {
  const base = `/v2/projects/${k.projectId}`;
  const request = (r: Omit<FuzzRequest, 'api' | 'family'>): FuzzRequest => ({ api: 'management', family, ...r });
  switch (family) {
    case 'files':
      return fc
        .tuple(
          segment(['photo.png', 'a.txt', 'x']),
          fc.constantFrom('text/plain', 'image/png', '', 'application/json', '\u00e9/\u00e9'),
          fc.oneof(fc.constant<string | null>(null), fc.constantFrom('0', '5', '-1', 'abc', '99999999999', 'torn')),
          fc.constantFrom('POST', 'POST', 'GET', 'PUT'),
          fc.string({ unit: 'binary-ascii', maxLength: 40 }),
          headersOf(key),
        )
        .map(([name, type, length, method, content, headers]) => {
          const upload = request({
            method,
            path: `${base}/files/${name}`,
            headers: { ...headers, ...(type === '' ? {} : { 'content-type': type }) },
            ...(method === 'GET' ? {} : { body: Buffer.from(content, 'latin1') }),
            isWrite: method !== 'GET',
          });
          // A claimed Content-Length (true or not) goes out as raw bytes: a client would correct it.
          // Never fewer bytes than claimed: the server would rightly wait for the rest.
          if (length === null) return upload;
          // Sometimes the client goes away mid-body: nothing of it may stay (issue 27, finding 14).
          if (length === 'torn') {
            const torn = { ...upload, headers: { ...upload.headers, 'content-length': '100000' } };
            return { ...torn, raw: rawUpload(torn), isTorn: true };
          }
          const claimedBytes = Number(length);
          const padded =
            Number.isSafeInteger(claimedBytes) && claimedBytes <= 1_000
              ? { body: Buffer.from(content.padEnd(claimedBytes, '.'), 'latin1') }
              : {};
          const claimed = { ...upload, ...padded, headers: { ...upload.headers, 'content-length': length } };
          return { ...claimed, raw: rawUpload(claimed) };
        });
    case 'binaries':
      return fc
        .tuple(segment([k.projectId]), segment(k.fileIds), segment(['photo.txt']), fc.constantFrom('GET', 'HEAD'))
        .map(([p, f, n, method]) => ({
          // The bytes are served by the assets origin; Management only redirects there.
          ...request({ method, path: `/assets/${p}/${f}/${n}`, headers: {}, isWrite: false }),
          api: 'assets' as const,
        }));
    case 'admin':
      return fc
        .tuple(
          fc.constantFrom('/admin/projects', `/admin/projects/${k.projectId}`, `/admin/projects/${k.projectId}/keys`),
          fc.constantFrom(...methodsAnyRoute),
          fc.constantFrom('', 'Bearer x', 'Bearer 0123456789abcdef0123'),
          encodedBody(bodyFrom(fc.constant({ name: 'Admin project' }))),
        )
        .map(([path, method, auth, encoded]) =>
          request({
            method,
            path,
            headers: { ...(auth === '' ? {} : { authorization: auth }), ...encoded.headers },
            ...(encoded.body === undefined || method === 'GET' ? {} : { body: encoded.body }),
            isWrite: method !== 'GET',
          }),
        );
    default:
      return fc
        .tuple(
          fc.oneof(
            hostileSegment.map((s) => `/${s}`),
            hostileSegment.map((s) => `${base}/${s}`),
            hostileSegment.map((s) => `/v2/projects/${s}/items`),
            fc.constantFrom('/healthz', '/readyz', '/metrics', '/', '/v2', '/v3/projects/x', '//v2//projects'),
            fc.integer({ min: 16_000, max: 40_000 }).map((n) => `${base}/items?x=${'a'.repeat(n)}`),
          ),
          fc.constantFrom(...methodsAnyRoute),
          headersOf(key),
          fc.nat(9),
        )
        .map(([path, method, headers, rawChoice]) =>
          rawChoice === 0
            ? request({ method, path, headers, raw: malformedHttp(path, rawChoice), isWrite: true })
            : request({ method, path, headers, isWrite: method !== 'GET' && method !== 'HEAD' }),
        );
  }
}

/** A file upload as bytes, keeping the Content-Length it claims (possibly more or less than sent). */
function rawUpload(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : Buffer.from(request.body).toString('latin1');
  const lines = Object.entries({ host: 'fuzz', ...request.headers, connection: 'close' }).map(([n, v]) => `${n}: ${v}`);
  return `${request.method} ${request.path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Requests HTTP/1.1 cannot parse: bad request lines, control characters, conflicting framing. */
export function malformedHttp(path: string, variant: number): string {
  const all = [
    `GET ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    `GET /a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET ${path} HTTP/9.9\r\nHost: x\r\n\r\n`,
    `G\u0001T ${path} HTTP/1.1\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nX: a\u0000b\r\n\r\n`,
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`,
    `HEAD ${path}?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nHost: x\r\nX: ${'b'.repeat(17_000)}\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nBad Header\r\n\r\n`,
    `HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  ];
  return all[variant % all.length] as string;
}

/** Every Management family the fuzzer knows. */
export const managementFamilies = [
  'items',
  'variants',
  'types',
  'snippets',
  'taxonomies',
  'languages',
  'collections',
  'workflows',
  'spaces',
  'webhooks',
  'assets',
  'folders',
  'environment',
  'v1',
  'files',
  'binaries',
  'admin',
  'unknown',
] as const;
