/**
 * The shapes a state file's entries must have before they enter a store: a value read from disk is
 * checked here, field by field, so that a damaged file (a line replaced by `null`, a record without
 * an id, a token without a digest) is refused at start with a message that names it, rather than
 * crashing the server later on the first request that reads it.
 * @see docs/reference-server.md (State file)
 */
import { Collection } from './collection.js';
import type { Store } from './store.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The fields of an object that must be strings, or the first one that is not. */
function missingString(value: Record<string, unknown>, fields: readonly string[]): string | undefined {
  return fields.find((field) => typeof value[field] !== 'string');
}

/** What each list and map field of the store holds, by field name. */
const ENTRY_SHAPES: Readonly<Record<string, (value: unknown) => string | undefined>> = {
  tokens: (value) => {
    if (!isObject(value)) return 'a token must be an object';
    if (!Buffer.isBuffer(value.digest)) return 'a token has no digest';
    const field = missingString(value, ['kind', 'subject']);
    if (field) return `a token has no string ${field}`;
    if (!Array.isArray(value.organizationIds) || !(value.scopes instanceof Set)) return 'a token has no organizationIds list or scopes set';
    return undefined;
  },
  events: (value) => {
    if (!isObject(value)) return 'an event must be an object';
    const field = missingString(value, ['id', 'type', 'timestamp']);
    if (field) return `an event has no string ${field}`;
    return isObject(value.data) ? undefined : 'an event has no data object';
  },
  deliveries: (value) => {
    if (!isObject(value)) return 'a delivery must be an object';
    const field = missingString(value, ['id', 'event_id', 'endpoint_id']);
    return field ? `a delivery has no string ${field}` : undefined;
  },
  authorizationCodes: (value) => grantProblem(value, 'an authorization code'),
  refreshTokens: (value) => grantProblem(value, 'a refresh token'),
};

function grantProblem(value: unknown, what: string): string | undefined {
  if (!isObject(value)) return `${what} must be an object`;
  const field = missingString(value, ['client_id', 'scope']);
  if (field) return `${what} has no string ${field}`;
  return typeof value.expiresAtMs === 'number' ? undefined : `${what} has no expiresAtMs`;
}

/**
 * What is wrong with a decoded value about to enter the store field `field`, or undefined when it
 * fits: a collection's record is an object with a string `id` and `organization_id`; a token, an
 * event, a delivery, an authorization code or a refresh token has the fields the server reads.
 * @param key a map entry's key (map fields only): a string
 */
export function entryProblem(store: Store, field: string, value: unknown, key?: unknown): string | undefined {
  const target = Object.hasOwn(store, field) ? (store as unknown as Record<string, unknown>)[field] : undefined;
  if (target instanceof Collection) {
    if (!isObject(value)) return 'a record must be an object';
    const missing = missingString(value, ['id', 'organization_id']);
    return missing ? `a record has no string ${missing}` : undefined;
  }
  if (target instanceof Map && typeof key !== 'string') return 'a map entry has no string key';
  return ENTRY_SHAPES[field]?.(value);
}
