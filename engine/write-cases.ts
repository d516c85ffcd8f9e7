/**
 * Cases of operations that change state (RFC 9110 section 9.2.1: not safe), each on a fixture made
 * for it, so that no case depends on another's order and none touches a resource the run did not
 * make: a new order for a billing update, a new product for a benefit replacement, a new customer
 * for a deletion, a fresh authorization code for a token request, a fresh invitation for a seat
 * claim. Fixtures come from the target adapter (the reference's control API on the embedded
 * target); an operation of another document without a recipe takes its path values from the
 * target's configured fixtures and a valid body drawn from its schema.
 *
 * A recipe also says how the owner reads the resource back (`readBack`), which the tenancy check
 * compares before and after another organization's attempt, and how the effect of a successful
 * write shows (`readBackAfter`), for write_effect_visible.
 * @see spec/rules.yaml writes.effect_visible; docs/usage.md (Writes: every answer judged, each case on a fixture made for it);
 *   docs/stateful.md (The target adapter)
 */
import type { LoadedSpec, Operation } from '../core/spec/load.js';
import { validRequestBody } from './probe-body.js';
import { missingCapability, type AdapterCapability, type ApiObject, type TargetAdapter } from '../core/adapter.js';
import { defaultTokenEnv } from '../core/target.js';
import { missingFixtures } from '../core/operation-needs.js';
import { pathValues } from './operation-inputs.js';
import type { Target } from '../core/target.js';
import type { Exchange, QueryValues, Role, SkipKind, TestCase } from '../core/types.js';

/** A request of a document operation, as a case is built from it. */
export interface PlannedRequest {
  operation: Operation;
  pathParams: Record<string, string>;
  query: QueryValues;
  role: Role | null;
  /** The request body, already encoded (a read that is a POST, as a token's introspection). */
  body?: { contentType: string; text: string };
  /** Polls the request until it answers 2xx, for up to this many milliseconds (an invoice generated asynchronously). */
  eventuallyMs?: number;
}

/** One write case: its request parts, on a fixture made for it, and how its owner reads it back. */
export interface WriteFixture {
  pathParams: Record<string, string>;
  body?: { contentType: string; text: string };
  /** Overrides the case's role: the credentials of a form body (`client_id`/`client_secret`) go without a bearer token. */
  role?: Role | null;
  /** How the owner reads the resource before and after a write that must change nothing (another organization's). */
  readBack?: PlannedRequest;
  /** How the effect of a successful write is read back; undefined when nothing can show it. */
  readBackAfter?(write: Exchange): PlannedRequest | undefined;
}

/** Why write cases of an operation cannot be made here, with what the run lacks and how to provide it. */
export interface WriteUnavailable {
  reason: string;
  kind: SkipKind;
  fix: string;
}

/** Makes the fixtures of an operation's write cases. */
export interface WriteCaseMaker {
  /** Set when no case can be made; `make` then throws. */
  unavailable?: WriteUnavailable;
  /**
   * Makes the fixture of case `n` for `role` (the fixture belongs to the `admin` role's
   * organization, or to the customer of the portal roles).
   * @throws AdapterError when the adapter refuses (a harness error of the cell)
   */
  make(role: Role | null, n: number): Promise<WriteFixture>;
}

/** What a recipe works with. */
interface RecipeContext {
  spec: LoadedSpec;
  operation: Operation;
  target: Target;
  adapter: TargetAdapter;
  n: number;
  role: Role | null;
}

/** How the write cases of one operation of the bundled API get their fixtures. */
interface Recipe {
  capabilities: readonly AdapterCapability[];
  fixtures?: readonly string[];
  make(ctx: RecipeContext): Promise<WriteFixture>;
}

const json = (value: unknown) => ({ contentType: 'application/json', text: JSON.stringify(value) });
const form = (fields: Record<string, string>) => ({ contentType: 'application/x-www-form-urlencoded', text: new URLSearchParams(fields).toString() });

/** The billing details a case sets: every field of an address, different per case. */
function billing(n: number) {
  return {
    billing_name: `Conformance Billing ${n}`,
    billing_address: { country: 'FR', line1: `${n + 1} rue de la Conformité`, line2: null, postal_code: '75002', city: 'Paris', state: null },
  };
}

/** The first operation of the document with this method and path, if any. */
function operationAt(spec: LoadedSpec, method: string, path: string): Operation | undefined {
  return spec.operations.find((o) => o.method === method && o.path === path);
}

/** A read-back request of `path` with `{id}` set, when the document has a GET there. */
function readAt(spec: LoadedSpec, path: string, pathParams: Record<string, string>, role: Role | null, query: QueryValues = {}, eventuallyMs?: number): PlannedRequest | undefined {
  const operation = operationAt(spec, 'GET', path);
  return operation ? { operation, pathParams, query, role, ...(eventuallyMs ? { eventuallyMs } : {}) } : undefined;
}

function idOf(object: ApiObject, what: string): string {
  if (typeof object.id !== 'string') throw new Error(`the adapter returned ${what} without an id`);
  return object.id;
}

/** The id in a write's JSON answer, when there is one. */
function answeredId(write: Exchange): string | undefined {
  const body = write.response?.json as { id?: unknown } | undefined;
  return typeof body?.id === 'string' ? body.id : undefined;
}

/** A paid order of the portal customer (the adapter's default customer), made for one case. */
async function paidOrder(ctx: RecipeContext): Promise<string> {
  const order = await ctx.adapter.createOrder!({ ...(ctx.target.fixtures.customer_id ? { customerId: ctx.target.fixtures.customer_id } : {}) });
  const id = idOf(order, 'an order');
  await ctx.adapter.completeOrder!(id);
  return id;
}

/** The order read back as its owner: the organization's order, or the customer portal's. */
function orderReadBack(ctx: RecipeContext, id: string, portal: boolean): PlannedRequest | undefined {
  return portal
    ? readAt(ctx.spec, '/v1/customer-portal/orders/{id}', { id }, ctx.role === 'member_session' ? 'member_session' : 'customer_session')
    : readAt(ctx.spec, '/v1/orders/{id}', { id }, 'admin');
}

/** The recipes of the bundled API's operations that change state, by `METHOD path`. */
const RECIPES: Readonly<Record<string, Recipe>> = {
  'POST /v1/files/': {
    capabilities: [],
    async make(ctx) {
      const size = 16 + ctx.n;
      return {
        pathParams: {},
        body: json({ name: `conformance-${ctx.n}.txt`, mime_type: 'text/plain', size, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: size - 1 }] } }),
        readBackAfter: (write) => {
          const id = answeredId(write);
          return id ? readAt(ctx.spec, '/v1/files/', {}, 'admin', { ids: id }) : undefined;
        },
      };
    },
  },
  'POST /v1/products/{id}/benefits': {
    capabilities: ['createProduct'],
    fixtures: ['benefit_id'],
    async make(ctx) {
      const id = idOf(await ctx.adapter.createProduct!({ name: `Conformance product ${ctx.n}` }), 'a product');
      const read = () => readAt(ctx.spec, '/v1/products/{id}', { id }, 'admin') ?? readAt(ctx.spec, '/v1/products/', {}, 'admin', { id });
      return { pathParams: { id }, body: json({ benefits: [ctx.target.fixtures.benefit_id] }), readBack: read(), readBackAfter: () => read() };
    },
  },
  'DELETE /v1/customers/external/{external_id}': {
    capabilities: ['createCustomer'],
    async make(ctx) {
      const customer = await ctx.adapter.createCustomer!({});
      const id = idOf(customer, 'a customer');
      if (typeof customer.external_id !== 'string') throw new Error('the adapter returned a customer without an external_id');
      const read = () => readAt(ctx.spec, '/v1/customers/{id}', { id }, 'admin') ?? readAt(ctx.spec, '/v1/customers/{id}/payment-methods', { id }, 'admin');
      return { pathParams: { external_id: customer.external_id }, readBack: read(), readBackAfter: () => read() };
    },
  },
  'PATCH /v1/orders/{id}': {
    capabilities: ['createOrder', 'completeOrder'],
    async make(ctx) {
      const id = await paidOrder(ctx);
      return { pathParams: { id }, body: json(billing(ctx.n)), readBack: orderReadBack(ctx, id, false), readBackAfter: () => orderReadBack(ctx, id, false) };
    },
  },
  'PATCH /v1/customer-portal/orders/{id}': {
    capabilities: ['createOrder', 'completeOrder'],
    fixtures: ['customer_id'],
    async make(ctx) {
      const id = await paidOrder(ctx);
      return { pathParams: { id }, body: json(billing(ctx.n)), readBack: orderReadBack(ctx, id, true), readBackAfter: () => orderReadBack(ctx, id, true) };
    },
  },
  'POST /v1/orders/{id}/invoice': {
    capabilities: ['createOrder', 'completeOrder'],
    async make(ctx) {
      const id = await paidOrder(ctx);
      const read = (eventuallyMs?: number) => readAt(ctx.spec, '/v1/orders/{id}/invoice', { id }, 'admin', {}, eventuallyMs);
      return { pathParams: { id }, readBack: read(), readBackAfter: () => read(3000) };
    },
  },
  'POST /v1/customer-portal/orders/{id}/invoice': {
    capabilities: ['createOrder', 'completeOrder'],
    fixtures: ['customer_id'],
    async make(ctx) {
      const id = await paidOrder(ctx);
      const read = (eventuallyMs?: number) => readAt(ctx.spec, '/v1/customer-portal/orders/{id}/invoice', { id }, 'customer_session', {}, eventuallyMs);
      return { pathParams: { id }, readBack: read(), readBackAfter: () => read(3000) };
    },
  },
  'POST /v1/oauth2/token': {
    capabilities: ['mintAuthorizationCode'],
    async make(ctx) {
      const code = await ctx.adapter.mintAuthorizationCode!({});
      const secret = ctx.target.roles.oauth_client?.token ?? '';
      const introspect = operationAt(ctx.spec, 'POST', '/v1/oauth2/introspect');
      return {
        pathParams: {},
        role: null,
        body: form({ grant_type: 'authorization_code', client_id: code.clientId, client_secret: secret, code: code.code, ...(code.redirectUri ? { redirect_uri: code.redirectUri } : {}) }),
        // The token issued, read back as its client reads it: introspected (token_lifetime_matches_introspection).
        readBackAfter(write) {
          const token = (write.response?.json as { access_token?: unknown } | undefined)?.access_token;
          if (!introspect || typeof token !== 'string') return undefined;
          return { operation: introspect, pathParams: {}, query: {}, role: null, body: form({ token, client_id: code.clientId, client_secret: secret }) };
        },
      };
    },
  },
  'POST /v1/oauth2/introspect': {
    capabilities: [],
    async make(ctx) {
      // The token introspected is the admin role's own: asking about it changes nothing.
      const secret = ctx.target.roles.oauth_client?.token ?? '';
      return { pathParams: {}, role: null, body: form({ token: ctx.target.roles.admin?.token ?? '', client_id: ctx.target.fixtures.oauth_client_id ?? '', client_secret: secret }) };
    },
  },
  'POST /v1/customer-seats/claim': {
    capabilities: ['createSeatInvitation'],
    async make(ctx) {
      const invitation = await ctx.adapter.createSeatInvitation!({});
      return { pathParams: {}, role: null, body: json({ invitation_token: invitation.invitationToken }) };
    },
  },
};

/** The recipe of a bundled operation, by method and path (so an operation of another document with the same operationId never matches). */
function recipeOf(operation: Operation): Recipe | undefined {
  return RECIPES[`${operation.method} ${operation.path}`];
}

/** The roles whose credentials a recipe's form body carries instead of a bearer token. */
const FORM_ROLES: Readonly<Record<string, Role>> = { 'POST /v1/oauth2/token': 'oauth_client', 'POST /v1/oauth2/introspect': 'oauth_client' };

/**
 * The maker of an operation's write cases on a target.
 * @param adapter the run's adapter (the reference's control API on the embedded target); undefined when the run has none
 */
export function writeCaseMaker(spec: LoadedSpec, operation: Operation, target: Target, adapter: TargetAdapter | undefined): WriteCaseMaker {
  const recipe = recipeOf(operation);
  const unavailable = (reason: string, kind: SkipKind, fix: string): WriteCaseMaker => ({
    unavailable: { reason, kind, fix },
    make: () => Promise.reject(new Error(reason)),
  });
  if (target.readOnly) return unavailable('read-only run: the operation changes state', 'option', 'run without --read-only to send writes (each on a fixture made for it)');
  if (!recipe) {
    const missing = missingFixtures(operation, target);
    if (missing.length) return unavailable(`needs fixture ${missing.join(', ')}`, 'fixture', `name ${missing.join(', ')} under "fixtures" in the config file`);
    if (operation.raw.requestBody?.required && !validRequestBody(operation)) {
      return unavailable('no request body valid against its schema could be drawn', 'fixture', 'simplify the request body schema (the harness found no value it accepts)');
    }
    return {
      async make(_role, n) {
        const body = validRequestBody(operation, 1 + n) ?? validRequestBody(operation);
        return { pathParams: pathValues(operation, target, true), ...(body ? { body } : {}) };
      },
    };
  }
  const capability = missingCapability(adapter, recipe.capabilities);
  if (capability) return unavailable(capability, 'adapter', 'pass --adapter FILE with a module that has this capability (see the README, Adapters)');
  const fixture = recipe.fixtures?.find((f) => !target.fixtures[f]);
  if (fixture) return unavailable(`needs fixture ${fixture}`, 'fixture', `name ${fixture} under "fixtures" in the config file`);
  const formRole = FORM_ROLES[`${operation.method} ${operation.path}`];
  if (formRole && !target.roles[formRole]) return unavailable(`needs role ${formRole}`, 'role', `export ${target.roleEnv?.[formRole] ?? defaultTokenEnv(formRole)}=<the client secret>`);
  return {
    make: (role, n) => recipe.make({ spec, operation, target, adapter: adapter!, n, role }),
  };
}

/**
 * The case of a write on its fixture, sent with `role` unless the fixture says whose credentials
 * its body carries.
 */
export function writeTestCase(operation: Operation, fixture: WriteFixture, role: Role | null, id: string): TestCase {
  return {
    id,
    operationId: operation.operationId,
    pathParams: fixture.pathParams,
    query: {},
    headers: {},
    role: fixture.role !== undefined ? fixture.role : role,
    ...(fixture.body ? { body: fixture.body } : {}),
  };
}
