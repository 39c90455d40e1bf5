/**
 * A browser of one person against `/app/api` for tests: keeps the `lectern_app` cookie and the
 * CSRF token as the editor does, and sends the token on every change unless told not to.
 */
export interface PersonBrowser {
  cookie: string | null;
  csrf: string | null;
  call(
    path: string,
    init?: { method?: string; body?: unknown; csrf?: string | false },
  ): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }>;
  signIn(email: string, password: string): Promise<number>;
}

export function personBrowser(origin: string): PersonBrowser {
  const browser: PersonBrowser = {
    cookie: null,
    csrf: null,
    async call(path, init = {}) {
      const method = init.method ?? 'GET';
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (browser.cookie !== null) headers['cookie'] = `lectern_app=${browser.cookie}`;
      const csrf = init.csrf === undefined ? browser.csrf : init.csrf;
      if (csrf !== null && csrf !== false && method !== 'GET') headers['x-csrf-token'] = csrf;
      const response = await fetch(`${origin}/app/api${path}`, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const set = response.headers.get('set-cookie');
      const value = set === null ? null : /lectern_app=([^;]*)/.exec(set)?.[1];
      if (value !== undefined && value !== null) browser.cookie = value === '' ? null : value;
      const text = await response.text();
      const json = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      if (typeof json['csrf_token'] === 'string') browser.csrf = json['csrf_token'];
      return { status: response.status, json, headers: response.headers };
    },
    async signIn(email, password) {
      return (await browser.call('/session', { method: 'POST', body: { email, password } })).status;
    },
  };
  return browser;
}
