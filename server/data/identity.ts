/**
 * What the rest of the server asks of a store loaded from a data file, as it asks it of the demo
 * store (server/demo-data.ts DemoData): organizations A and B, the user and the portal customer
 * behind the harness's role tokens, the OAuth clients and the fixtures. A data file names none of
 * them, so they are derived from the store itself, the same way when the file is loaded and when a
 * state file it seeded is read again: A is the first organization, B the second (or an
 * organization of that id that holds nothing), the portal customer is A's first customer; the user,
 * B when the file has one organization, and the portal member are ids derived from the seed.
 * @see docs/data-file.md (Tokens); server/auth.ts issueDemoTokens
 */
import { issueDemoTokens, type DemoTokenName } from '../auth.js';
import type { DemoData } from '../demo-data.js';
import { derivedUuid } from '../resources/platform-fields.js';
import { createStore, type Store } from '../store.js';

/** The client id control functions fall back to in a data store, which has no OAuth client: minting a code without `client_id` answers NOT_FOUND naming it. */
export const NO_OAUTH_CLIENT = '(none: a data file declares no OAuth client)';

/** The ids of a data store that the harness's roles and the control API's defaults use. @see docs/data-file.md (Tokens and the harness's roles) */
export function dataIdentity(store: Store): DemoData {
  const organizations = [...store.organizations.all()];
  const a = organizations[0]?.id ?? derivedUuid(`data-organization:${store.seed}`);
  const b = organizations[1]?.id ?? derivedUuid(`data-other-organization:${store.seed}`);
  const customer = store.customers.inOrganization(a)[0];
  const first = <T extends { id: string }>(records: readonly T[]): string | undefined => records[0]?.id;
  const fixtures: Record<string, string | undefined> = {
    organization_id: a,
    ...(organizations[1] ? { other_organization_id: b } : {}),
    product_id: first(store.products.inOrganization(a)),
    benefit_id: first(store.benefits.inOrganization(a)),
    customer_id: customer?.id,
    customer_external_id: customer?.external_id ?? undefined,
    subscription_id: first(store.subscriptions.inOrganization(a)),
    order_id: first(store.orders.inOrganization(a)),
    license_key_id: first(store.licenseKeys.inOrganization(a)),
    webhook_endpoint_id: first(store.webhookEndpoints.inOrganization(a)),
  };
  const none = { clientId: NO_OAUTH_CLIENT, clientSecret: '' };
  return {
    organizations: { a, b },
    userId: derivedUuid(`data-user:${store.seed}`),
    portal: { organizationId: a, customerId: customer?.id ?? derivedUuid(`data-portal-customer:${store.seed}`), memberId: derivedUuid(`data-portal-member:${store.seed}`) },
    oauthClients: { a: none, b: none },
    fixtures: Object.fromEntries(Object.entries(fixtures).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
}

/**
 * Registers the harness's role tokens in a data store for {@link dataIdentity}'s ids (the same
 * token strings as the demo store's of the seed: `oat_demo_admin_<40 hex>`, ...).
 * @returns the identity and the token strings by name
 * @see server/auth.ts issueDemoTokens
 */
export function issueDataRoleTokens(store: Store): { demo: DemoData; tokens: Record<DemoTokenName, string> } {
  const demo = dataIdentity(store);
  return { demo, tokens: issueDemoTokens(store, demo.organizations, demo.userId, demo.portal) };
}

/** The identity and role token strings of a data store read back from a state file, whose tokens are registered already. */
export function dataSeedingOf(store: Store): { demo: DemoData; tokens: Record<DemoTokenName, string> } {
  const demo = dataIdentity(store);
  // The strings depend on the seed only; registering them in a scratch store gives them back.
  return { demo, tokens: issueDemoTokens(createStore({ seed: store.seed }), demo.organizations, demo.userId, demo.portal) };
}
