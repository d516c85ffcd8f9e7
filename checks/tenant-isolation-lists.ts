import type { Check, Exchange } from '../core/types.js';
import { acceptsOrganizationToken } from '../core/operation-needs.js';
import { listBody } from './support.js';

/** Ids and `organization_id` values of the items of a 200 list answer; undefined when it is not one. */
function records(exchange: Exchange | undefined): { ids: Set<string>; organizations: Set<string>; items: Record<string, unknown>[] } | undefined {
  if (!exchange || exchange.response?.status !== 200) return undefined;
  const body = listBody(exchange);
  if (!body) return undefined;
  const strings = (key: string) => new Set(body.items.map((item) => item[key]).filter((v): v is string => typeof v === 'string'));
  return { ids: strings('id'), organizations: strings('organization_id'), items: body.items };
}

/**
 * A list holds only the caller's organization's records: the same list request sent with the
 * `admin` role (the first organization) and then with the `other_org` role (the second) gives the
 * second no record the first is listed, by `id` or by `organization_id`. Lists named by a path
 * parameter (a customer's payment methods) are left to `tenant_isolation`, since the other
 * organization's token must get 404 there.
 * @see spec/rules.yaml auth.tenant_isolation.lists
 */
export const tenantIsolationLists: Check = {
  id: 'tenant_isolation_lists',
  title: 'A list holds another organization\'s records',
  severity: 'critical',
  rule: 'auth.tenant_isolation.lists',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'tenancy',
  level: 'must',
  needs: 'roles',
  roles: ['admin', 'other_org'],
  appliesTo: ({ operation }) => {
    if (!operation.paginated) return 'not a paginated list';
    if (operation.parameters.some((p) => p.in === 'path')) return 'a list named by a path parameter: tenant_isolation judges it';
    return acceptsOrganizationToken(operation) || 'the operation does not accept organization tokens';
  },
  run(_ctx, exchange, history) {
    const own = records(history[0]);
    const other = records(exchange);
    if (!own || !other) return [];
    const leaked = other.items.filter((item) => own.ids.has(item.id as string) || own.organizations.has(item.organization_id as string));
    if (leaked.length === 0) return [];
    const shown = leaked.slice(0, 3).map((item) => `${String(item.id)} (organization ${String(item.organization_id ?? 'not shown')})`).join(', ');
    return [{
      kind: 'list_leaks_other_organization',
      title: 'A list holds another organization\'s records',
      message: `The other organization's token was listed ${leaked.length} record(s) that the first organization's token is listed too, or of its organization: ${shown}${leaked.length > 3 ? ', …' : ''}.`,
      expected: 'no record of the first organization',
      actual: leaked.slice(0, 10).map((item) => ({ id: item.id, organization_id: item.organization_id })),
    }];
  },
};
