/**
 * The real Management API (and its assets origin) in a child process
 * (services/management/src/testing/editor-mapi-server.ts, an in-memory PGlite store), for component
 * tests that run the app's screens against the server's own routes. The app calls
 * `/app/api/v2/projects/{id}/…`; these stand-ins for the browser's fetch and XMLHttpRequest send
 * each call to the same MAPI route with the project's management key in place of the session
 * cookie (what the session-authenticated /app/api does for a person).
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { vi } from 'vitest';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** One HTTP exchange through node:http (not the test window's fetch). */
export function httpCall(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface RealMapi {
  readonly projectId: string;
  /** `http://127.0.0.1:<port>/v2/projects/<id>`. */
  readonly projectUrl: string;
  /** A MAPI call with the key; JSON in and out. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  close(): Promise<void>;
}

/** The server script (a browser-like test environment may not give a file URL here). */
function serverScript(): string {
  const here = import.meta.url;
  const root = here.startsWith('file:') ? join(dirname(fileURLToPath(here)), '../../..') : process.cwd();
  return join(root, 'services/management/src/testing/editor-mapi-server.ts');
}

/** Starts services/management/src/testing/editor-mapi-server.ts as a child process and waits for its summary line. */
export async function startRealMapi(): Promise<RealMapi> {
  const child = spawn(process.execPath, [serverScript()], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const summary = await new Promise<{ projectId: string; projectUrl: string; key: string }>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => resolve(JSON.parse(line)));
    void exited.then((code) => reject(new Error(`editor-mapi-server exited (${code}) before it listened`)));
  });
  const { projectId, projectUrl, key } = summary;
  const auth = { authorization: `Bearer ${key}` };

  const forward = (method: string, appPath: string, headers: Record<string, string>, body?: Buffer | string) => {
    const path = appPath.replace(/^\/app\/api\/v2\/projects\/[^/]+/, '');
    return httpCall(`${projectUrl}${path}`, { method, headers: { ...headers, ...auth }, ...(body ? { body } : {}) });
  };

  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://app.test');
    // The session route is the people branch's; here the key's owner stands for a person who
    // may change content (a management key acts as a project manager).
    if (url.pathname === '/app/api/session')
      return Response.json({
        user: { id: 'key-owner', email: 'tester@example.com' },
        csrf_token: 'unused',
        projects: [
          { id: projectId, name: 'Test project', roles: ['Project manager'], permissions: ['manage_content'] },
        ],
      });
    const headers = { ...((init.headers as Record<string, string>) ?? {}) };
    const answer = await forward(init.method ?? 'GET', url.pathname, headers, init.body as string | undefined);
    const isEmpty = answer.status === 204 || answer.body.length === 0;
    return new Response(isEmpty ? null : answer.body.toString('utf8'), {
      status: answer.status,
      headers: { 'content-type': answer.headers['content-type'] ?? 'application/json' },
    });
  });

  /** An XMLHttpRequest whose upload goes to the real MAPI; progress is reported once, when sent. */
  class ForwardingXhr {
    status = 0;
    responseText = '';
    withCredentials = false;
    #method = 'GET';
    #url = '';
    readonly #headers: Record<string, string> = {};
    readonly #on = new Map<string, ((e: unknown) => void)[]>();
    readonly #onUpload = new Map<string, ((e: unknown) => void)[]>();
    readonly upload = {
      addEventListener: (n: string, f: (e: unknown) => void) =>
        this.#onUpload.set(n, [...(this.#onUpload.get(n) ?? []), f]),
    };
    open(method: string, url: string) {
      this.#method = method;
      this.#url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.#headers[name] = value;
    }
    addEventListener(n: string, f: (e: unknown) => void) {
      this.#on.set(n, [...(this.#on.get(n) ?? []), f]);
    }
    abort() {}
    send(file: Blob) {
      void (async () => {
        const bytes = Buffer.from(await file.arrayBuffer());
        const answer = await forward(this.#method, decodeURI(this.#url), this.#headers, bytes);
        for (const f of this.#onUpload.get('progress') ?? [])
          f({ lengthComputable: true, loaded: bytes.length, total: bytes.length });
        this.status = answer.status;
        this.responseText = answer.body.toString('utf8');
        for (const f of this.#on.get('load') ?? []) f({});
      })();
    }
  }
  vi.stubGlobal('XMLHttpRequest', ForwardingXhr);

  return {
    projectId,
    projectUrl,
    async call(method, path, body) {
      const answer = await httpCall(`${projectUrl}${path}`, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = answer.body.toString('utf8');
      return { status: answer.status, json: (text ? JSON.parse(text) : null) as never };
    },
    async close() {
      vi.unstubAllGlobals();
      child.stdin?.end();
      await exited;
    },
  };
}

/** A small valid PNG (an RGB gradient), built by hand. */
export function makePng(width: number, height: number): Buffer {
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rows.set([(x * 5) % 256, (y * 5) % 256, 128], y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
