/**
 * The error catalogue: every error Lectern can answer with, by a stable UPPER_SNAKE code.
 *
 * `kind` is transport-neutral; each API maps kinds to HTTP statuses in one place
 * (see `http-status.ts`). `management` and `delivery` are the numeric `error_code` values
 * sent in those APIs' bodies (SPEC 7.2, 7.3). They are never 0, so clients such as the
 * migration toolkit, which key retries on `error_code`, can tell errors apart.
 * `docs/errors.md` lists the same table; a test keeps the two in step.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'precondition_failed'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export interface CatalogueEntry {
  readonly kind: ErrorKind;
  /** `error_code` in Management API bodies. */
  readonly management: number;
  /** `error_code` in Delivery, Preview and GraphQL error bodies. */
  readonly delivery: number;
  /** The message when the thrower gives none. */
  readonly message: string;
}

export const catalogue = {
  API_KEY_MISSING: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message: "Missing API key. Send the header 'Authorization: Bearer <API key>' with a key of this project.",
  },
  API_KEY_INVALID: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message:
      'The API key is invalid. Check that you copied the whole key, or create a new one with `lectern keys create`.',
  },
  API_KEY_WRONG_KIND: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message: 'This API key is not meant for this API. Use a key of the matching kind.',
  },
  API_KEY_EXPIRED: {
    kind: 'unauthenticated',
    management: 8,
    delivery: 2,
    message: 'The API key has expired. Create or regenerate a key with `lectern keys`.',
  },
  API_KEY_REVOKED: {
    kind: 'forbidden',
    management: 7,
    delivery: 2,
    message: 'The API key was revoked. Use the key that replaced it.',
  },
  PROJECT_ACCESS_DENIED: {
    kind: 'forbidden',
    management: 4,
    delivery: 3,
    message: 'The specified API key does not provide the permissions required to access the project.',
  },
  GRAPHQL_UNAVAILABLE: {
    kind: 'forbidden',
    management: 5,
    delivery: 5,
    message:
      'The GraphQL API is unavailable for projects with secure access on (SPEC 5). Turn secure access off, or start the server with LECTERN_GRAPHQL_SECURE_ACCESS_KEYS=true to accept Bearer delivery keys.',
  },
  SESSION_REQUIRED: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message:
      'Sign in first: this request carries no session of the editor, or the session ended (signed out, or 12 hours idle).',
  },
  SIGN_IN_FAILED: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message: 'The e-mail address or the password is wrong.',
  },
  PASSWORD_SIGN_IN_DISABLED: {
    kind: 'forbidden',
    management: 4,
    delivery: 3,
    message:
      'Signing in with a password is turned off on this server (LECTERN_PASSWORD_SIGN_IN=false): sign in with single sign-on.',
  },
  SSO_NOT_CONFIGURED: {
    kind: 'not_found',
    management: 131,
    delivery: 100,
    message: 'Single sign-on is not configured on this server (LECTERN_OIDC_ISSUER).',
  },
  SSO_STATE_INVALID: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message:
      'This single sign-on answer does not belong to a sign-in started in this browser, or was used already. Start the sign-in again.',
  },
  SSO_PROVIDER_REFUSED: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message: 'The identity provider did not sign you in, or its answer could not be verified. Start the sign-in again.',
  },
  SSO_EMAIL_MISSING: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message: 'The identity provider sent no e-mail address for you; Lectern matches people by e-mail.',
  },
  SSO_EMAIL_NOT_VERIFIED: {
    kind: 'unauthenticated',
    management: 1,
    delivery: 2,
    message:
      'The identity provider has not verified your e-mail address, so Lectern cannot match you by it. Verify it with the provider, then sign in again.',
  },
  SSO_NOT_OPERATOR: {
    kind: 'forbidden',
    management: 4,
    delivery: 3,
    message:
      'Your identity provider signed you in, but does not make you an operator of this console (LECTERN_OIDC_OPERATOR_VALUE). Ask your administrator.',
  },
  CSRF_TOKEN_INVALID: {
    kind: 'forbidden',
    management: 4,
    delivery: 3,
    message:
      "The request lacks the session's security token (header x-csrf-token), or it is stale. Reload the page and try again.",
  },
  LINK_NOT_FOUND: {
    kind: 'not_found',
    management: 131,
    delivery: 100,
    message:
      'This link is unknown, was already used or has expired. Ask for a new one (the operator: lectern users reset-link).',
  },
  OPERATOR_TOKEN_INVALID: {
    kind: 'unauthenticated',
    management: 9,
    delivery: 2,
    message:
      'Missing or invalid operator token. The admin API takes the token that `lectern start` wrote to server.json in its data directory.',
  },
  INVALID_REQUEST_BODY: {
    kind: 'invalid',
    management: 5,
    delivery: 1,
    message:
      "The provided request body is invalid. See 'validation_errors' for more information and specify a valid JSON object.",
  },
  INVALID_QUERY: {
    kind: 'invalid',
    management: 1007,
    delivery: 1,
    message: 'The request has an invalid query parameter.',
  },
  IMAGE_TOO_LARGE: {
    kind: 'invalid',
    management: 1007,
    delivery: 1,
    message:
      'The image is too large to transform: the source or the requested output has more pixels than this server transforms. Ask for the original (no transformation parameters) or upload a smaller image.',
  },
  INVALID_IDENTIFIER: {
    kind: 'invalid',
    management: 6,
    delivery: 1,
    message: 'The identifier in the path is not valid.',
  },
  MALFORMED_URL: {
    kind: 'invalid',
    management: 6,
    delivery: 1,
    message:
      "The URL is not valid percent-encoding. Encode each reserved or non-ASCII character as its UTF-8 bytes in '%XX' form, for example '%20' for a space and '%25' for '%'.",
  },
  MALFORMED_REQUEST: {
    kind: 'invalid',
    management: 5,
    delivery: 1,
    message:
      'The request is not valid HTTP/1.1: check the request line and headers (no control characters, one Content-Length or Transfer-Encoding).',
  },
  CONTENT_ENCODING_INVALID: {
    kind: 'invalid',
    management: 5,
    delivery: 1,
    message:
      "The request body could not be decompressed as its 'Content-Encoding' header says. Send it uncompressed, or compress it with the encoding the header names.",
  },
  PROJECT_NOT_FOUND: {
    kind: 'not_found',
    management: 110,
    delivery: 104,
    message: 'The requested project was not found.',
  },
  API_KEY_NOT_FOUND: {
    kind: 'not_found',
    management: 112,
    delivery: 100,
    message: 'The requested API key was not found.',
  },
  LANGUAGE_NOT_FOUND: {
    kind: 'not_found',
    management: 111,
    delivery: 105,
    message: 'The requested language was not found.',
  },
  CONTENT_TYPE_NOT_FOUND: {
    kind: 'not_found',
    management: 105,
    delivery: 101,
    message: 'The requested content type was not found.',
  },
  SNIPPET_NOT_FOUND: {
    kind: 'not_found',
    management: 109,
    delivery: 101,
    message: 'The requested content type snippet was not found.',
  },
  TAXONOMY_NOT_FOUND: {
    kind: 'not_found',
    management: 107,
    delivery: 104,
    message: 'The requested taxonomy group was not found.',
  },
  COLLECTION_NOT_FOUND: {
    kind: 'not_found',
    management: 113,
    delivery: 106,
    message: 'The requested collection was not found.',
  },
  WORKFLOW_NOT_FOUND: {
    kind: 'not_found',
    management: 119,
    delivery: 107,
    message: 'The requested workflow was not found.',
  },
  SPACE_NOT_FOUND: {
    kind: 'not_found',
    management: 121,
    delivery: 108,
    message: 'The requested space was not found.',
  },
  DEFAULT_WORKFLOW_NOT_DELETABLE: {
    kind: 'invalid',
    management: 235,
    delivery: 1,
    message: "The default workflow '00000000-0000-0000-0000-000000000000' cannot be deleted.",
  },
  CONTENT_ELEMENT_NOT_FOUND: {
    kind: 'not_found',
    management: 105,
    delivery: 102,
    message: 'The requested content element was not found in the content type.',
  },
  RESPONSE_TOO_LARGE: {
    kind: 'invalid',
    management: 400,
    delivery: 6,
    message:
      "Your request reached the maximum response size of 2001 content items. To make a successful request, use content filtering and the 'limit' parameter to retrieve fewer content items. If you need to retrieve all content items from your project, we recommend using the Enumerate content items endpoint. Find more details in https://kontent.ai/learn/dapi-response-size.",
  },
  CONTINUATION_TOKEN_INVALID: {
    kind: 'invalid',
    management: 400,
    delivery: 107,
    message: "The continuation token specified in the 'X-Continuation' request header is malformed.",
  },
  ITEM_NOT_FOUND: {
    kind: 'not_found',
    management: 100,
    delivery: 100,
    message: 'The requested content item was not found.',
  },
  VARIANT_NOT_FOUND: {
    kind: 'not_found',
    management: 103,
    delivery: 100,
    message: 'The requested content item variant was not found.',
  },
  VARIANT_NOT_PUBLISHED: {
    kind: 'not_found',
    management: 122,
    delivery: 100,
    message: 'The language variant has no published version.',
  },
  VARIANT_VERSION_NOT_FOUND: {
    kind: 'not_found',
    management: 146,
    delivery: 100,
    message: 'The requested version of the language variant was not found (or was removed by the history retention).',
  },
  VARIANT_NOT_EDITABLE: {
    kind: 'invalid',
    management: 212,
    delivery: 1,
    message:
      'The language variant is published, scheduled or archived and cannot be changed. Create a new version or cancel the scheduling first.',
  },
  UNPUBLISH_NOT_PUBLISHED: {
    kind: 'invalid',
    management: 213,
    delivery: 1,
    message: 'Cannot unpublish a language variant that is not published.',
  },
  NEW_VERSION_NOT_PUBLISHED: {
    kind: 'invalid',
    management: 214,
    delivery: 1,
    message: 'Cannot create a new version of a language variant that is not published.',
  },
  WORKFLOW_STEP_NOT_ALLOWED: {
    kind: 'invalid',
    management: 215,
    delivery: 1,
    message:
      "Cannot change workflow step to Published. If you want to publish a language variant via the Management API, use the '/publish' endpoint instead.",
  },
  PUBLISH_NOT_ALLOWED: {
    kind: 'invalid',
    management: 216,
    delivery: 1,
    message: 'The language variant cannot be published in its current state.',
  },
  NOT_SCHEDULED: {
    kind: 'invalid',
    management: 218,
    delivery: 1,
    message: 'Cannot cancel scheduling of a language variant that is not scheduled to publish.',
  },
  ASSET_NOT_FOUND: {
    kind: 'not_found',
    management: 105,
    delivery: 100,
    message: 'The requested asset was not found.',
  },
  // Code and message as the webhooks reference answers (management-api-reference.md, "Retrieve a webhook").
  WEBHOOK_NOT_FOUND: {
    kind: 'not_found',
    management: 111,
    delivery: 100,
    message: 'The requested webhook was not found.',
  },
  FILE_CONTENT_TYPE_MISSING: {
    kind: 'invalid',
    management: 205,
    delivery: 1,
    message:
      "Missing the 'Content-Type' header. Send the MIME type of the file, for example 'Content-Type: image/png'.",
  },
  FILE_CONTENT_LENGTH_MISSING: {
    kind: 'invalid',
    management: 206,
    delivery: 1,
    message:
      "Missing the 'Content-Length' header. Send the size of the file in bytes (chunked uploads are not accepted).",
  },
  FILE_TOO_LARGE: {
    kind: 'payload_too_large',
    management: 413,
    delivery: 413,
    message: 'The file is larger than this server accepts.',
  },
  REMOTE_FILE_UNREACHABLE: {
    kind: 'invalid',
    management: 207,
    delivery: 400,
    message:
      'The file could not be fetched from the URL. Give a public http(s) URL that answers 200 with the file (private, loopback and metadata addresses are refused), or send the bytes.',
  },
  FILE_STORAGE_UNAVAILABLE: {
    kind: 'unavailable',
    management: 503,
    delivery: 503,
    message: 'This server has no file storage configured, so binary files cannot be uploaded or served.',
  },
  FILE_STORAGE_FULL: {
    kind: 'unavailable',
    management: 503,
    delivery: 503,
    message:
      'The file storage is full, so the file was not stored. Retry later; if it persists, ask the operator to free or add space.',
  },
  ASSET_FOLDERS_EXIST: {
    kind: 'invalid',
    management: 237,
    delivery: 1,
    message: 'The environment already has asset folders. Change them with PATCH /folders instead.',
  },
  ROLE_NOT_FOUND: {
    kind: 'not_found',
    management: 116,
    delivery: 100,
    message: 'The requested role was not found.',
  },
  CUSTOM_APP_NOT_FOUND: {
    kind: 'not_found',
    management: 100,
    delivery: 100,
    message: 'The requested custom app was not found.',
  },
  WEB_SPOTLIGHT_ROOT_TYPE_INVALID: {
    kind: 'invalid',
    management: 19,
    delivery: 1,
    message: 'The content type cannot be the Web Spotlight root type: it needs at least one subpages element.',
  },
  FILTER_VALUE_INVALID: {
    kind: 'invalid',
    management: 265,
    delivery: 1,
    message: 'A filter value is invalid.',
  },
  BULK_GET_REFERENCES_INVALID: {
    kind: 'invalid',
    management: 274,
    delivery: 1,
    message: 'Some item or language references could not be resolved. See validation_errors.',
  },
  VALIDATION_TASK_NOT_FOUND: {
    kind: 'not_found',
    management: 120,
    delivery: 100,
    message: 'The content validation task was not found. Tasks are kept for 7 days.',
  },
  BACKGROUND_TASK_NOT_FOUND: {
    kind: 'not_found',
    management: 100,
    delivery: 100,
    message: 'The background task was not found. Ended tasks are kept for 7 days.',
  },
  ENVIRONMENT_ALREADY_PRODUCTION: {
    kind: 'invalid',
    management: 232,
    delivery: 1,
    message: 'The environment is already the production environment.',
  },
  USER_NOT_FOUND: {
    kind: 'not_found',
    management: 115,
    delivery: 100,
    message: 'The user was not found.',
  },
  OWN_ROLE_NOT_CHANGEABLE: {
    kind: 'invalid',
    management: 117,
    delivery: 1,
    message: 'You cannot change your own role.',
  },
  SUBSCRIPTION_NOT_FOUND: {
    kind: 'not_found',
    management: 130,
    delivery: 100,
    message: 'The subscription was not found.',
  },
  SUBSCRIPTION_ADMIN_NOT_CHANGEABLE: {
    kind: 'invalid',
    management: 229,
    delivery: 1,
    message: 'A subscription admin (the owner of a management key) cannot be activated or deactivated.',
  },
  RENDITION_NOT_FOUND: {
    kind: 'not_found',
    management: 118,
    delivery: 100,
    message: 'The requested rendition was not found.',
  },
  COMMENT_THREAD_NOT_FOUND: {
    kind: 'not_found',
    management: 140,
    delivery: 100,
    message: 'The requested comment thread was not found on this language variant.',
  },
  COMMENT_NOT_FOUND: {
    kind: 'not_found',
    management: 141,
    delivery: 100,
    message: 'The requested comment was not found in this thread.',
  },
  COMMENT_NOT_OWN: {
    kind: 'forbidden',
    management: 142,
    delivery: 16,
    message: 'Only the author of a comment can edit or delete it.',
  },
  COMMENT_THREAD_RESOLVED: {
    kind: 'invalid',
    management: 143,
    delivery: 1,
    message: 'The comment thread is resolved. Reopen it before replying.',
  },
  COMMENT_AUTHOR_REQUIRED: {
    kind: 'forbidden',
    management: 144,
    delivery: 16,
    message: 'Comments are written by a person: use a management key issued to a user, or sign in to the editor.',
  },
  COMMENT_LIMIT_REACHED: {
    kind: 'invalid',
    management: 145,
    delivery: 1,
    message: 'The language variant has as many comment threads, or the thread as many comments, as allowed.',
  },
  PERMISSION_DENIED: {
    kind: 'forbidden',
    management: 16,
    delivery: 16,
    message: 'You do not have sufficient permissions to perform requested action.',
  },
  PRODUCTION_ENVIRONMENT_NOT_DELETABLE: {
    kind: 'invalid',
    management: 233,
    delivery: 1,
    message: "The production environment can't be deleted. Mark another environment as production first.",
  },
  ROUTE_NOT_FOUND: {
    kind: 'not_found',
    management: 404,
    delivery: 404,
    message: 'No resource exists at this path.',
  },
  METHOD_NOT_ALLOWED: {
    kind: 'method_not_allowed',
    management: 405,
    delivery: 405,
    message: 'The HTTP method is not supported for this resource.',
  },
  API_KEY_SLOT_TAKEN: {
    kind: 'conflict',
    management: 409,
    delivery: 409,
    message: 'An active key of this kind already exists. Regenerate it instead of creating another.',
  },
  CONFLICT: {
    kind: 'conflict',
    management: 409,
    delivery: 409,
    message: 'The resource was modified by another request at the same time. Retry the request.',
  },
  REQUEST_TIMEOUT: {
    kind: 'request_timeout',
    management: 408,
    delivery: 408,
    message: 'The request took too long to arrive. Send the whole request at once and retry.',
  },
  PAYLOAD_TOO_LARGE: {
    kind: 'payload_too_large',
    management: 413,
    delivery: 413,
    message: 'The request body is too large.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    kind: 'unsupported_media_type',
    management: 415,
    delivery: 415,
    message:
      "The body's media type or encoding is not supported. Send JSON ('Content-Type: application/json', UTF-8), uncompressed or with 'Content-Encoding: gzip', 'deflate' or 'br'.",
  },
  HEADERS_TOO_LARGE: {
    kind: 'headers_too_large',
    management: 431,
    delivery: 431,
    message:
      'The URL and headers together are larger than 16 KiB. Shorten the URL (split a long filter into several requests) or drop large headers.',
  },
  VARIANT_CHANGED: {
    kind: 'precondition_failed',
    management: 412,
    delivery: 412,
    message:
      "The language variant changed since the version in 'If-Match' (its ETag). Read the variant again (GET answers its current ETag), reapply your change and retry.",
  },
  RATE_LIMITED: {
    kind: 'rate_limited',
    management: 10000,
    delivery: 10000,
    message: 'API rate limit exceeded. Wait for the number of seconds in the Retry-After header.',
  },
  UNAVAILABLE: {
    kind: 'unavailable',
    management: 503,
    delivery: 503,
    message: 'The service is starting or shutting down. Retry in a few seconds.',
  },
  DEPENDENCY_UNAVAILABLE: {
    kind: 'unavailable',
    management: 503,
    delivery: 503,
    message: 'The database or another service this server needs is unreachable for a moment. Retry in a few seconds.',
  },
  INTERNAL: {
    kind: 'internal',
    management: 500,
    delivery: 500,
    message: 'An unexpected error occurred. Retry in a few seconds; if it persists, report the request id.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof catalogue;
