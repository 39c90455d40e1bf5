/**
 * A stand-in XMLHttpRequest the test drives by hand: it records each request (method, URL, headers,
 * body) and lets the test report upload progress, then answer.
 */
import { vi } from 'vitest';

export class FakeXhr {
  static readonly all: FakeXhr[] = [];
  method = '';
  url = '';
  body: unknown = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  readonly headers: Record<string, string> = {};
  readonly #listeners = new Map<string, ((e: unknown) => void)[]>();
  readonly #uploadListeners = new Map<string, ((e: unknown) => void)[]>();
  readonly upload = {
    addEventListener: (name: string, f: (e: unknown) => void) =>
      this.#uploadListeners.set(name, [...(this.#uploadListeners.get(name) ?? []), f]),
  };
  constructor() {
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  addEventListener(name: string, f: (e: unknown) => void) {
    this.#listeners.set(name, [...(this.#listeners.get(name) ?? []), f]);
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    for (const f of this.#listeners.get('abort') ?? []) f({});
  }
  /** Reports `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number) {
    for (const f of this.#uploadListeners.get('progress') ?? []) f({ lengthComputable: true, loaded, total });
  }
  /** Answers with a status and a JSON body. */
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    for (const f of this.#listeners.get('load') ?? []) f({});
  }
}

export function installFakeXhr(): typeof FakeXhr {
  FakeXhr.all.length = 0;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}
