/**
 * Bearer token authentication and scope authorization of the reference server. Only sha256
 * digests of secrets are stored; presented tokens are compared against every stored digest with
 * `crypto.timingSafeEqual`, and never logged.
 * @see spec/rules.yaml auth.missing_credentials, auth.invalid_credentials, auth.scopes
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecurityRequirement } from '../core/spec/load.js';
import type { FaultSet } from './faults.js';
import type { TokenKind, TokenRecord } from './records.js';
import { errorReply, type Reply } from './replies.js';
import type { Store } from './store.js';

/**
 * Every scope the API description names, and orders:write, which the spec infers for the order
 * update and invoice operations (`x-scopes-inferred`).
 * @see spec/rules.yaml auth.scopes
 */
export const ALL_SCOPES = [
  'products:read',
  'products:write',
  'files:read',
  'files:write',
  'customer_portal:read',
  'customer_portal:write',
  'customers:read',
  'customers:write',
  'refunds:read',
  'refunds:write',
  'subscriptions:read',
  'subscriptions:write',
  'orders:read',
  'orders:write',
  'webhooks:read',
  'webhooks:write',
] as const;

/** The read scopes of {@link ALL_SCOPES}. */
export const READ_SCOPES = ALL_SCOPES.filter((scope) => scope.endsWith(':read'));

/** The write scopes of {@link ALL_SCOPES}. */
export const WRITE_SCOPES = ALL_SCOPES.filter((scope) => scope.endsWith(':write'));

/** The scopes of a customer or member session. @see spec/rules.yaml auth.customer_portal_sessions */
export const PORTAL_SCOPES = ['customer_portal:read', 'customer_portal:write'] as const;

/**
 * The roles a target provides to the harness that the reference server has tokens for: `writer`
 * holds every write scope and no read scope of organization A, `pat` is a personal access token of
 * a member of organization A with every scope. @see docs/design.md (Targets, roles and verdicts)
 */
export type ReferenceRole = 'admin' | 'reader' | 'writer' | 'no_scope' | 'other_org' | 'pat' | 'customer_session' | 'member_session' | 'portal_no_scope';

/** Every demo token: the harness roles plus an OIDC token of a member of organization A. */
export type DemoTokenName = ReferenceRole | 'oidc';

/** Who a request acts for. */
export interface Principal {
  kind: TokenKind;
  /** The user (pat, oidc), organization (oat), customer (customer_session) or member (member_session). */
  subject: string;
  organizationIds: readonly string[];
  scopes: ReadonlySet<string>;
  /** customer_session and member_session: the customer whose portal the token opens. */
  customerId?: string;
  /** member_session: the member. */
  memberId?: string;
}

/** The customer and member behind the demo customer_session and member_session tokens. */
export interface DemoPortalIdentity {
  organizationId: string;
  customerId: string;
  memberId: string;
}

/** Outcome of {@link authenticate}: the principal, or the 401 to answer. */
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reply: Reply };

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const CHALLENGE = { 'www-authenticate': 'Bearer' };

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Lifetime and origin of a token that is not a demo token. */
export interface TokenOptions {
  /** Epoch milliseconds; absent for a token that does not expire. */
  expiresAtMs?: number;
  /** Epoch milliseconds. */
  issuedAtMs?: number;
  /** The OAuth client the token was issued to, and the subject type of its grant. */
  oauth?: { clientId: string; subjectType: 'user' | 'organization' };
}

/**
 * Stores a token (its digest only).
 * @param token the secret as clients send it
 * @returns the stored record (to revoke it later)
 */
export function registerToken(store: Store, token: string, principal: Principal, options: TokenOptions = {}): TokenRecord {
  const record: TokenRecord = { digest: digest(token), ...principal, organizationIds: [...principal.organizationIds], ...options };
  store.tokens.push(record);
  return record;
}

/**
 * Mints a new random bearer token for a principal (`<prefix>_<43 base64url characters>`).
 * @param prefix `polar_cst` for customer sessions, `polar_at_u` for OAuth access tokens, ...
 * @returns the token string, the only time it exists outside its digest
 */
export function issueToken(store: Store, prefix: string, principal: Principal, options: TokenOptions = {}): { token: string; record: TokenRecord } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, record: registerToken(store, token, principal, options) };
}

/**
 * The sha256 of a secret as a Buffer, for constant-time comparison with {@link secretMatches}.
 * @param secret a token, client secret or code as sent
 */
export function secretDigest(secret: string): Buffer {
  return digest(secret);
}

/** Whether `presented` is the secret whose digest is `stored`, compared in constant time. */
export function secretMatches(stored: Buffer, presented: string): boolean {
  return timingSafeEqual(stored, digest(presented));
}

/**
 * Creates the demo tokens, deterministic from the store's seed (`oat_demo_admin_<40 hex>`).
 * @param organizations ids of organization A (the harness's own) and B (`other_org`)
 * @param userId the user behind the pat and oidc tokens, a member of organization A
 * @param portal the customer of organization A behind customer_session, and its member behind member_session
 * @returns token strings by name
 */
export function issueDemoTokens(store: Store, organizations: { a: string; b: string }, userId: string, portal: DemoPortalIdentity): Record<DemoTokenName, string> {
  const secret = (prefix: string) => `${prefix}_${createHash('sha256').update(`reference-demo-token:${store.seed}:${prefix}`).digest('hex').slice(0, 40)}`;
  const all = new Set<string>(ALL_SCOPES);
  const grants: Record<DemoTokenName, { token: string } & Principal> = {
    admin: { token: secret('oat_demo_admin'), kind: 'oat', subject: organizations.a, organizationIds: [organizations.a], scopes: all },
    reader: { token: secret('oat_demo_reader'), kind: 'oat', subject: organizations.a, organizationIds: [organizations.a], scopes: new Set(READ_SCOPES) },
    writer: { token: secret('oat_demo_writer'), kind: 'oat', subject: organizations.a, organizationIds: [organizations.a], scopes: new Set(WRITE_SCOPES) },
    no_scope: { token: secret('oat_demo_noscope'), kind: 'oat', subject: organizations.a, organizationIds: [organizations.a], scopes: new Set() },
    other_org: { token: secret('oat_demo_otherorg'), kind: 'oat', subject: organizations.b, organizationIds: [organizations.b], scopes: all },
    pat: { token: secret('pat_demo_user'), kind: 'pat', subject: userId, organizationIds: [organizations.a], scopes: all },
    oidc: { token: secret('oidc_demo_user'), kind: 'oidc', subject: userId, organizationIds: [organizations.a], scopes: all },
    customer_session: {
      token: secret('polar_cst_demo'),
      kind: 'customer_session',
      subject: portal.customerId,
      organizationIds: [portal.organizationId],
      scopes: new Set(PORTAL_SCOPES),
      customerId: portal.customerId,
    },
    portal_no_scope: {
      token: secret('polar_cst_demo_noscope'),
      kind: 'customer_session',
      subject: portal.customerId,
      organizationIds: [portal.organizationId],
      scopes: new Set(),
      customerId: portal.customerId,
    },
    member_session: {
      token: secret('polar_mst_demo'),
      kind: 'member_session',
      subject: portal.memberId,
      organizationIds: [portal.organizationId],
      scopes: new Set(PORTAL_SCOPES),
      customerId: portal.customerId,
      memberId: portal.memberId,
    },
  };
  const tokens = {} as Record<DemoTokenName, string>;
  for (const [name, { token, ...principal }] of Object.entries(grants) as [DemoTokenName, { token: string } & Principal][]) {
    registerToken(store, token, principal);
    tokens[name] = token;
  }
  return tokens;
}

/**
 * Whether a stored token may still be used: not revoked, not expired by the store's clock, and, for
 * portal sessions, its customer not deleted.
 */
export function isTokenActive(store: Store, record: TokenRecord): boolean {
  if (record.revoked) return false;
  if (record.expiresAtMs !== undefined && store.clock().getTime() >= record.expiresAtMs) return false;
  if (record.customerId !== undefined && store.customers.get(record.customerId)?.deleted_at != null) return false;
  return true;
}

/**
 * The stored token of a bearer string, compared against every stored digest in constant time.
 * @returns the record, active or not, or undefined when unknown
 */
export function findToken(store: Store, token: string): TokenRecord | undefined {
  const presented = digest(token);
  let found: TokenRecord | undefined;
  for (const record of store.tokens) {
    // Every record is compared, so the time taken does not depend on which one matches.
    if (timingSafeEqual(record.digest, presented) && !found) found = record;
  }
  return found;
}

/**
 * Finds the principal of an Authorization header.
 * @param header the raw header value, or undefined when absent
 * @returns the principal, or a 401 `{error: "Unauthorized", detail}` for a missing, malformed,
 *   unknown, expired or revoked token
 */
export function authenticate(store: Store, header: string | undefined): AuthResult {
  if (header === undefined || header.trim() === '') {
    return { ok: false, reply: errorReply(401, 'Missing credentials: send an Authorization: Bearer <token> header.', CHALLENGE) };
  }
  const match = BEARER.exec(header);
  if (!match) {
    return { ok: false, reply: errorReply(401, 'Malformed Authorization header: expected "Bearer <token>".', CHALLENGE) };
  }
  const found = findToken(store, match[1]!);
  if (!found || !isTokenActive(store, found)) return { ok: false, reply: errorReply(401, 'Invalid or expired token.', CHALLENGE) };
  return { ok: true, principal: found };
}

/** Whether a token of this kind is refused as if no alternative named it (faults `pat_refused`, `member_session_refused`). */
function kindRefused(kind: TokenKind, faults: FaultSet): boolean {
  return (kind === 'pat' && faults.has('pat_refused')) || (kind === 'member_session' && faults.has('member_session_refused'));
}

/**
 * The alternatives a token may satisfy: all of them, except under the fault `write_scope_refused`,
 * where an operation that lists a read scope is served only through an alternative with one.
 */
function usableAlternatives(alternatives: readonly SecurityRequirement[], kind: TokenKind, faults: FaultSet): readonly SecurityRequirement[] {
  if (!faults.has('write_scope_refused')) return alternatives;
  const reading = alternatives.filter((alternative) => (alternative[kind] ?? []).some((scope) => scope.endsWith(':read')));
  return reading.length > 0 ? reading : alternatives;
}

/**
 * Checks a principal against an operation's security alternatives: one alternative naming the
 * token's kind, whose scopes the token all holds, suffices; no alternatives means no authentication.
 * @param faults `scopes_ignored` skips the scope check (the kind is still checked); `pat_refused` and
 *   `member_session_refused` refuse those kinds; `write_scope_refused` requires the read scope where one is listed
 * @returns undefined when allowed, else a 403 `{error: "NotPermitted", detail}`
 */
export function authorize(principal: Principal, security: readonly SecurityRequirement[], faults: FaultSet): Reply | undefined {
  if (security.length === 0) return undefined;
  const forKind = kindRefused(principal.kind, faults) ? [] : usableAlternatives(security.filter((alternative) => principal.kind in alternative), principal.kind, faults);
  if (forKind.length === 0) {
    const kinds = [...new Set(security.flatMap((alternative) => Object.keys(alternative)))];
    return errorReply(403, `This operation does not accept ${principal.kind} tokens; it accepts ${kinds.join(', ')}.`);
  }
  if (faults.has('scopes_ignored')) return undefined;
  if (forKind.some((alternative) => (alternative[principal.kind] ?? []).every((scope) => principal.scopes.has(scope)))) return undefined;
  const scopes = [...new Set(forKind.flatMap((alternative) => alternative[principal.kind] ?? []))];
  return errorReply(403, `The token lacks the scope this operation requires: one of ${scopes.join(', ')}.`);
}
