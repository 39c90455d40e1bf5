import type { FuzzApi, FuzzRequest, FuzzResponse } from './client.ts';
import { imageSize } from './image-size.ts';

type Json = Record<string, unknown>;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** SPEC 7.2: request_id, a non-zero error_code, message, and validation_errors entries with a message. */
function isManagementError(body: Json): boolean {
  const problems = body['validation_errors'];
  return (
    isText(body['request_id']) &&
    isInt(body['error_code']) &&
    body['error_code'] > 0 &&
    isText(body['message']) &&
    (problems === undefined ||
      (Array.isArray(problems) && problems.every((p) => typeof p === 'object' && p !== null && isText(p.message))))
  );
}

/** SPEC 7.3: message, request_id, a non-zero error_code, specific_code. */
function isDeliveryError(body: Json): boolean {
  return (
    isText(body['message']) &&
    isText(body['request_id']) &&
    isInt(body['error_code']) &&
    body['error_code'] > 0 &&
    isInt(body['specific_code'])
  );
}

/** SPEC 7.5: errors map, title, status, traceId, and Lectern's non-zero error_code. */
function isRecommendationsError(body: Json): boolean {
  const errors = body['errors'];
  return (
    typeof errors === 'object' &&
    errors !== null &&
    !Array.isArray(errors) &&
    isText(body['traceId']) &&
    isInt(body['status']) &&
    isInt(body['error_code']) &&
    body['error_code'] > 0
  );
}

const shapes: Record<FuzzApi, (body: Json) => boolean> = {
  management: isManagementError,
  assets: isManagementError,
  delivery: isDeliveryError,
  preview: isDeliveryError,
  graphql: isDeliveryError,
  recommendations: isRecommendationsError,
};

/** A JSON-RPC error (the MCP transport's own refusals: JSON-RPC 2.0 §5.1). */
function isJsonRpcError(body: Json): boolean {
  const error = body['error'];
  return (
    body['jsonrpc'] === '2.0' &&
    typeof error === 'object' &&
    error !== null &&
    isInt((error as Json)['code']) &&
    isText((error as Json)['message'])
  );
}

/**
 * Why an answer is wrong for its request, or null: a HEAD answer with body bytes, a 4xx whose
 * body is not the API's error shape (a "foreign body"). 5xx answers are counted apart.
 */
export function foreignBody(request: FuzzRequest, response: FuzzResponse): string | null {
  if (request.method === 'HEAD' || /^HEAD /.test(request.raw ?? '')) {
    return (response.bytesAfterHead ?? 0) > 0 ? `HEAD answer carried ${response.bytesAfterHead} body bytes` : null;
  }
  if (response.status < 400 || response.status >= 500) return null;
  // Over the parser's 64 KiB the request is refused before its method is known: the answer's
  // head alone, so a HEAD request's framing holds (http-kit answerClientErrors).
  if (response.status === 431 && response.body.length === 0 && headBytes(request) > 60_000) return null;
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return `${response.status} body is not JSON: ${JSON.stringify(response.body.subarray(0, 120).toString('utf8'))}`;
  }
  const isShaped = (b: Json) => shapes[request.api](b) || (request.family === 'mcp' && isJsonRpcError(b));
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !isShaped(body as Json)) {
    return `${response.status} body is not the ${request.api} error shape: ${JSON.stringify(body).slice(0, 200)}`;
  }
  return null;
}

/** About how many bytes a request's line and headers take on the wire. */
function headBytes(request: FuzzRequest): number {
  if (request.raw !== undefined) return request.raw.indexOf('\r\n\r\n');
  return request.path.length + Object.entries(request.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 40);
}

const rasterTypes = /^image\/(png|jpeg|gif|webp|avif)\s*(;|$)/i;

/**
 * Why an uploaded file's bytes are served unsafely, or null (issue 27, finding 3): a file served
 * (2xx) from `/assets/…` must say `X-Content-Type-Options: nosniff`, and anything but a raster
 * image must also be `Content-Disposition: attachment` with a `Content-Security-Policy` that
 * sandboxes it, so an uploaded HTML, SVG or script never runs as a page of the origin.
 */
export function unsafeFile(request: FuzzRequest, response: FuzzResponse): string | null {
  const path = request.raw === undefined ? request.path : (/^[A-Z]+ (\S+)/.exec(request.raw)?.[1] ?? '');
  if (!path.startsWith('/assets/') || response.status < 200 || response.status >= 300) return null;
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const type = header('content-type');
  const missing = [
    ...(header('x-content-type-options').toLowerCase() === 'nosniff' ? [] : ['X-Content-Type-Options: nosniff']),
    ...(rasterTypes.test(type) || /^attachment/i.test(header('content-disposition'))
      ? []
      : ['Content-Disposition: attachment']),
    ...(rasterTypes.test(type) || /\bsandbox\b/i.test(header('content-security-policy'))
      ? []
      : ['Content-Security-Policy: sandbox']),
  ];
  return missing.length === 0
    ? null
    : `${response.status} ${type || 'no Content-Type'} served without ${missing.join(', ')}`;
}

/**
 * Why a transformed image is larger than its source, or null (issue 27, finding 5: as
 * Kontent.ai's image API, never upscale past the source, whatever `w`, `h` or `dpr` ask).
 */
export function upscaledImage(
  request: FuzzRequest,
  response: FuzzResponse,
  source: { readonly path: string; readonly width: number; readonly height: number },
): string | null {
  if (request.method !== 'GET' || !request.path.startsWith(`${source.path}?`) || response.status !== 200) return null;
  const size = imageSize(response.body);
  if (size === null || (size.width <= source.width && size.height <= source.height)) return null;
  return `${size.width} × ${size.height} made of a ${source.width} × ${source.height} source`;
}
