import type { Check } from '../core/types.js';
import { acceptsOrganizationToken } from '../core/operation-needs.js';
import { brief } from './support.js';

/**
 * A resource of another organization is answered exactly like a missing one: the second
 * organization's token asking for the first organization's resource gets 404 with
 * `{error: "ResourceNotFound", detail}`, never the resource and never a 403 that leaks its existence.
 * On an operation that changes state the attempt also changes nothing: when the evidence carries
 * the owner's reads of the resource before and after it (`history`: before, after), they must be
 * the same.
 * @see spec/rules.yaml auth.tenant_isolation, errors.not_found; docs/design.md (What the API requires that the harness relies on)
 */
export const tenantIsolation: Check = {
  id: 'tenant_isolation',
  title: 'Another organization\'s resource is visible',
  severity: 'critical',
  rule: 'auth.tenant_isolation',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'tenancy',
  level: 'must',
  needs: 'other_org',
  appliesTo: ({ operation }) =>
    !operation.parameters.some((p) => p.in === 'path')
      ? 'no path parameter naming a resource'
      : acceptsOrganizationToken(operation) || 'the operation does not accept organization tokens',
  run(_ctx, exchange, history) {
    const response = exchange.response;
    if (!response) return [];
    const [before, after] = history;
    if (before?.response && after?.response && (before.response.status !== after.response.status || before.response.body !== after.response.body)) {
      return [{
        kind: 'cross_tenant_write',
        title: 'Another organization changed a resource',
        message: `The other organization's ${exchange.request.method} ${exchange.request.url.replace(/\?.*$/, '')} got ${response.status}, and the owner reads the resource differently afterwards (${before.response.status} ${brief(before.response.json ?? before.response.body, 80)} before, ${after.response.status} ${brief(after.response.json ?? after.response.body, 80)} after).`,
        expected: 'the resource unchanged (and 404 ResourceNotFound)',
        actual: { status: response.status, before: before.response.json ?? before.response.body.slice(0, 200), after: after.response.json ?? after.response.body.slice(0, 200) },
      }];
    }
    const body = response.json as { error?: unknown; detail?: unknown } | undefined;
    if (response.status === 404 && body?.error === 'ResourceNotFound' && typeof body.detail === 'string') return [];
    return [{
      kind: response.status < 300 ? 'tenant_leak' : response.status === 404 ? 'wrong_error_body' : 'existence_leaked',
      title: response.status < 300 ? 'Another organization\'s resource is served' : 'Another organization\'s resource not answered like a missing one',
      message: `The other organization's token asking for ${exchange.request.url.replace(/\?.*$/, '')} got ${response.status} ${brief(response.json ?? response.body, 100)}; it must get 404 ResourceNotFound.`,
      expected: { status: 404, error: 'ResourceNotFound' },
      actual: { status: response.status, body: response.json ?? response.body.slice(0, 200) },
    }];
  },
};
