import type { Check } from '../core/types.js';

/** The media type of a Content-Type header value, lower-case, without parameters. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type || undefined;
}

function covers(documented: string, actual: string): boolean {
  const [dt, ds] = documented.toLowerCase().split('/');
  const [at, as] = actual.split('/');
  return (dt === '*' || dt === at) && (ds === '*' || ds === as);
}

/**
 * A response with a body carries a Content-Type that the operation documents for its status.
 * A status without documented content is not checked here.
 * @see https://spec.openapis.org/oas/v3.1.0#response-object
 */
export const contentTypeConformance: Check = {
  id: 'content_type_conformance',
  title: 'Undocumented Content-Type',
  severity: 'medium',
  rule: 'openapi.response.content',
  layer: 'generic',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response) return [];
    const key = ctx.spec.matchStatus(ctx.operation, response.status);
    const documented = key ? (ctx.operation.responseMediaTypes[key] ?? []) : [];
    if (documented.length === 0) return [];
    const actual = mediaTypeOf(response.headers['content-type']);
    if (!actual) {
      return [{
        kind: 'missing_content_type',
        title: 'Missing Content-Type header',
        message: `The ${response.status} response has no Content-Type; documented: ${documented.join(', ')}.`,
        expected: documented,
        actual: null,
      }];
    }
    if (documented.some((d) => covers(d, actual))) return [];
    return [{
      kind: 'undocumented_content_type',
      title: 'Undocumented Content-Type',
      message: `The ${response.status} response is ${actual}; documented: ${documented.join(', ')}.`,
      expected: documented,
      actual,
    }];
  },
};
