/**
 * The app's one way to the server: JSON over fetch under /app/api, with the session cookie and,
 * on every change, the session's CSRF token in `x-csrf-token`. Errors come back in the
 * Management API's own shape (SPEC 7.2) as an `ApiError`.
 */

/** The Management API's error body (request_id, error_code, message, validation_errors). */
export interface ApiErrorBody {
  readonly request_id?: string;
  readonly error_code?: number;
  readonly message: string;
  readonly validation_errors?: readonly { readonly message: string; readonly path?: string }[];
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}

let csrfToken: string | null = null;

/** Remembers the session's CSRF token (from `GET /app/api/session` or sign-in). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The session's CSRF token, for requests not made through `request` (an XHR upload). */
export function csrfTokenOf(): string | null {
  return csrfToken;
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/** The response and its JSON (null for an empty body). */
export interface ApiResponse<T> {
  readonly data: T;
  readonly headers: Headers;
}

/** A request to `/app/api{path}`; throws `ApiError` on a non-2xx answer. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/app/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const body =
      json && typeof json === 'object' && 'message' in json
        ? (json as ApiErrorBody)
        : { message: `The server answered ${response.status}.` };
    throw new ApiError(response.status, body);
  }
  return { data: json as T, headers: response.headers };
}

/** `request` for the JSON alone. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await request<T>(path, options)).data;
}

/** The Management API v2 path of a project: `/v2/projects/{id}{rest}` under /app/api. */
export function mapi(projectId: string, rest: string): string {
  return `/v2/projects/${encodeURIComponent(projectId)}${rest}`;
}
