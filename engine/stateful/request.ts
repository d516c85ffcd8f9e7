/**
 * How the stateful engine (scenarios and model commands alike) asks for one request: of an
 * operation of the document, by operationId, or of a URL the target handed out. One request type
 * and one way to make its case, so that a scenario step and a command send the same bytes.
 * @see docs/stateful.md
 */
import type { QueryValues, Role, TestCase, UrlRequest } from '../../core/types.js';

/** A request of an operation of the document. */
export interface ApiRequest {
  /** Whose credentials to send; default none. */
  role?: Role;
  /** A bearer token that is not a role's (a session or access token the scenario or sequence obtained). */
  bearer?: string;
  pathParams?: Record<string, string>;
  query?: QueryValues;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
}

/** The case of an {@link ApiRequest} of `operationId`, with the case id `id`. */
export function apiCase(id: string, operationId: string, request: ApiRequest): TestCase {
  const body =
    request.json !== undefined
      ? { contentType: 'application/json', text: JSON.stringify(request.json) }
      : request.form
        ? { contentType: 'application/x-www-form-urlencoded', text: new URLSearchParams(request.form).toString() }
        : undefined;
  return {
    id,
    operationId,
    pathParams: request.pathParams ?? {},
    query: request.query ?? {},
    headers: request.bearer ? { authorization: `Bearer ${request.bearer}` } : {},
    role: request.role ?? null,
    ...(body ? { body } : {}),
  };
}

/** The case of a request to a URL the target handed out, sent as the operation `operationId` (engine/stateful: `outsideOperation`), without credentials unless `request.headers` carry them. */
export function urlCase(id: string, operationId: string, request: UrlRequest): TestCase {
  return { id, operationId, pathParams: {}, query: {}, headers: request.headers ?? {}, role: null, ...(request.body ? { body: request.body } : {}) };
}
