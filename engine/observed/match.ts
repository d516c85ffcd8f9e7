/**
 * Matching an observed request (one the harness did not make: proxied traffic, a HAR entry, a
 * user's own test) to the operation of the document it calls: its method and path against the
 * path templates, below the base path of the document's servers or of the target, and the case
 * it amounts to (path parameters, query, headers), so that the one judging path can judge it.
 * @see docs/observed.md (Matching); https://spec.openapis.org/oas/v3.1.0#paths-object (templated paths; concrete paths match before templated ones)
 */
import type { LoadedSpec, Operation } from '../../core/spec/load.js';
import type { HttpRequest, QueryValues, TestCase } from '../../core/types.js';

/** An operation matched to a request, with the path parameters its template took from the path. */
export interface OperationMatch {
  operation: Operation;
  /** Path parameters by name, percent-decoded. */
  pathParams: Record<string, string>;
}

interface Route {
  operation: Operation;
  method: string;
  pattern: RegExp;
  names: string[];
  /** Templated segments: concrete paths match first (OpenAPI, Paths Object). */
  templated: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The path prefixes the document's servers put before its paths (`/api` of `https://host/api`),
 * server variables replaced by their defaults; an absolute path only (`''` for a server at the root).
 * @see https://spec.openapis.org/oas/v3.1.0#server-object
 */
export function serverBasePaths(document: { servers?: { url?: string; variables?: Record<string, { default?: string }> }[] }): string[] {
  const bases = new Set<string>();
  for (const server of document.servers ?? []) {
    const url = (server.url ?? '').replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
    let path: string;
    try {
      path = new URL(url, 'http://relative.invalid').pathname;
    } catch {
      continue;
    }
    const trimmed = path.replace(/\/+$/, '');
    if (trimmed) bases.add(trimmed);
  }
  return [...bases];
}

/**
 * Finds the operation of a request in one document. Built once per document; matching costs one
 * regular expression per operation of the request's method.
 */
export class OperationMatcher {
  readonly #routes: Route[];
  readonly #bases: string[];

  /**
   * @param spec the document whose operations are matched
   * @param basePaths path prefixes to strip besides the servers' (the target's own path, `/sandbox`)
   */
  constructor(spec: Pick<LoadedSpec, 'operations' | 'document'>, basePaths: readonly string[] = []) {
    this.#bases = [...new Set([...basePaths.map((b) => b.replace(/\/+$/, '')).filter(Boolean), ...serverBasePaths(spec.document)])].sort((a, b) => b.length - a.length);
    this.#routes = spec.operations.map((operation) => {
      const names: string[] = [];
      const source = operation.path.split(/(\{[^}]+\})/).map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return escapeRegExp(part);
        names.push(name);
        return '([^/]+)';
      }).join('');
      return { operation, method: operation.method.toUpperCase(), pattern: new RegExp(`^${source}$`), names, templated: names.length };
    }).sort((a, b) => a.templated - b.templated);
  }

  /**
   * The operation a request calls: its method and its path (without the query), tried as it is
   * and below each base path.
   * @param method the request's method, any case
   * @param pathname the request's path, percent-encoded as on the wire (`/v1/products/abc`)
   * @returns the match, or undefined when no operation of the document has this method and path
   */
  match(method: string, pathname: string): OperationMatch | undefined {
    const upper = method.toUpperCase();
    const candidates = [pathname, ...this.#bases.filter((b) => pathname === b || pathname.startsWith(`${b}/`)).map((b) => pathname.slice(b.length) || '/')];
    for (const path of candidates) {
      for (const route of this.#routes) {
        if (route.method !== upper) continue;
        const found = route.pattern.exec(path);
        if (!found) continue;
        const pathParams: Record<string, string> = {};
        route.names.forEach((name, i) => {
          const raw = found[i + 1]!;
          try {
            pathParams[name] = decodeURIComponent(raw);
          } catch {
            pathParams[name] = raw;
          }
        });
        return { operation: route.operation, pathParams };
      }
    }
    return undefined;
  }
}

/** Query values of a URL's search part as {@link QueryValues}: a repeated name becomes an array, in order. */
export function queryValuesOf(url: URL): QueryValues {
  const query: QueryValues = {};
  for (const [name, value] of url.searchParams) {
    const previous = query[name];
    query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

/**
 * The case an observed request amounts to: its operation, path parameters, query and headers as
 * sent (lower-case names). The role is unknown (`null`): an observed request carries whatever
 * credentials its client sent, which `request.headers` holds.
 * @param id the case id, `observed#<n>` by convention
 */
export function observedCase(id: string, request: HttpRequest, match: OperationMatch): TestCase {
  const url = new URL(request.url);
  return {
    id,
    operationId: match.operation.operationId,
    pathParams: match.pathParams,
    query: queryValuesOf(url),
    headers: { ...request.headers },
    role: null,
    ...(request.body !== undefined ? { body: { contentType: request.headers['content-type'] ?? 'application/octet-stream', text: request.body } } : {}),
  };
}
