/**
 * Helpers of the robustness tests: a deep snapshot of the reference server's store, the shapes of
 * the API's error bodies, and the keys of the built-in prototypes (to detect prototype pollution).
 * @see spec/rules.yaml robustness.no_server_error; docs/design.md (What the API requires that the harness relies on: Errors)
 */
import type { Store } from '../../../server/store.js';

/** A store as JSON text per top-level member (collection, map, log, counter), so that a difference names the member. */
export type StoreSnapshot = Record<string, string>;

function isCollection(value: unknown): value is { all(): Iterable<unknown> } {
  return value !== null && typeof value === 'object' && typeof (value as { all?: unknown }).all === 'function';
}

/** JSON.stringify replacer: Sets as arrays, Buffers (token digests) as hex. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Set) return [...value];
  if (value instanceof Map) return [...value.entries()];
  const buffer = value as { type?: unknown; data?: unknown } | null;
  if (buffer && buffer.type === 'Buffer' && Array.isArray(buffer.data)) return Buffer.from(buffer.data as number[]).toString('hex');
  return value;
}

/**
 * A deep snapshot of every record of a store: collections (every record, in insertion order),
 * maps, arrays (tokens, events, deliveries) and scalars (clock offset, id sequence).
 */
export function storeSnapshot(store: Store): StoreSnapshot {
  const snapshot: StoreSnapshot = {};
  for (const [name, value] of Object.entries(store)) {
    if (typeof value === 'function') continue;
    snapshot[name] = JSON.stringify(isCollection(value) ? [...value.all()] : value, replacer);
  }
  return snapshot;
}

/** The members of the store that differ between two snapshots (empty when equal). */
export function changedMembers(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]);
}

/** Which of the API's error formats a body has. */
export type ErrorBodyShape = 'error-detail' | 'validation' | 'oauth2';

function isValidationEntry(entry: unknown): boolean {
  if (entry === null || typeof entry !== 'object') return false;
  const { loc, msg, type } = entry as Record<string, unknown>;
  return Array.isArray(loc) && loc.every((part) => typeof part === 'string' || typeof part === 'number') && typeof msg === 'string' && typeof type === 'string';
}

/**
 * The format of an error body: `{error: string, detail: string}` (401, 403, 404 and the
 * reference's own statuses), `{detail: [{loc, msg, type}]}` (422), or RFC 6749 `{error,
 * error_description?}` (the OAuth 2.0 endpoints); undefined for anything else.
 * @see docs/design.md (What the API requires that the harness relies on: Errors); RFC 6749 section 5.2
 */
export function errorBodyShape(body: unknown): ErrorBodyShape | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { error, detail, error_description: description } = body as Record<string, unknown>;
  if (typeof error === 'string' && typeof detail === 'string') return 'error-detail';
  if (error === undefined && Array.isArray(detail) && detail.every(isValidationEntry)) return 'validation';
  if (typeof error === 'string' && detail === undefined && (description === undefined || typeof description === 'string')) return 'oauth2';
  return undefined;
}

/** The built-in prototypes a polluted `__proto__` or `constructor.prototype` would change. */
const PROTOTYPES: Record<string, object> = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
  Number: Number.prototype,
  Boolean: Boolean.prototype,
};

/** The own keys of the built-in prototypes, by constructor name, to compare before and after a run. */
export function prototypeKeys(): Record<string, string[]> {
  return Object.fromEntries(Object.entries(PROTOTYPES).map(([name, prototype]) => [name, Reflect.ownKeys(prototype).map(String).sort()]));
}
