/**
 * What a handler answers, and the API's error bodies.
 * @see spec/rules.yaml auth.missing_credentials, errors.not_found, errors.not_permitted, errors.validation
 */

/** An answer before it is written: status, JSON body (none for 204) and extra headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Codings of a Buffer body made without compressing it whole (content-coding.ts `assembleGzip`),
   * by content coding; a coding absent here is compressed from the body when asked for.
   */
  coded?: { gzip?: () => Buffer };
}

/** The `error` values of `{error, detail}` bodies: the API's own, then ours for statuses it does not show. */
export type ErrorName =
  | 'Unauthorized'
  | 'NotPermitted'
  | 'ResourceNotFound'
  | 'MethodNotAllowed'
  | 'Conflict'
  | 'Gone'
  | 'BadRequest'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'NotImplemented'
  | 'RequestTimeout'
  | 'RequestHeaderFieldsTooLarge'
  | 'InternalServerError';

/** One entry of a 422 body. @see spec/rules.yaml errors.validation; spec/openapi.yaml, schema ValidationErrorEntry */
export interface ValidationEntry {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

const ERROR_NAMES: Record<number, ErrorName> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'NotPermitted',
  404: 'ResourceNotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  431: 'RequestHeaderFieldsTooLarge',
  501: 'NotImplemented',
};

/**
 * An `{error, detail}` reply.
 * @param status HTTP status
 * @param detail sentence for a person; never contains a secret
 */
export function errorReply(status: number, detail: string, headers?: Record<string, string>): Reply {
  const error = ERROR_NAMES[status] ?? (status >= 500 ? 'InternalServerError' : 'BadRequest');
  return { status, body: { error, detail }, ...(headers ? { headers } : {}) };
}

/** A 422 reply `{detail: [entries]}`. @see spec/rules.yaml errors.validation */
export function validationReply(entries: ValidationEntry[]): Reply {
  return { status: 422, body: { detail: entries } };
}
