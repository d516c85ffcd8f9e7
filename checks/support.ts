/**
 * Small pure helpers the checks share: reading list bodies, query values and field paths, and
 * comparing values the way a correct target may order them.
 */
import type { Exchange, QueryValues } from '../core/types.js';

/** Default page size, in items (spec/rules.yaml pagination.page_default). */
export const DEFAULT_LIMIT = 10;
/** Largest page size a list may yield, in items (spec/rules.yaml limits.page_size). */
export const MAX_LIMIT = 100;

/** A paginated list body (spec/rules.yaml pagination.counts), when the exchange has one. */
export interface ListBody {
  items: Record<string, unknown>[];
  pagination: { total_count: number; max_page: number };
}

/** The list body of a 2xx exchange, or undefined when the body is not a well-formed list. */
export function listBody(exchange: Exchange): ListBody | undefined {
  const json = exchange.response?.json as Partial<ListBody> | undefined;
  if (!json || !Array.isArray(json.items) || typeof json.pagination !== 'object' || json.pagination === null) return undefined;
  const { total_count, max_page } = json.pagination;
  if (typeof total_count !== 'number' || typeof max_page !== 'number') return undefined;
  return json as ListBody;
}

/** All values of a query parameter as strings (a single value becomes a one-element array). */
export function queryValues(query: QueryValues, name: string): string[] {
  const value = query[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** An integer query parameter, or undefined when absent or not an integer. */
export function queryInteger(query: QueryValues, name: string): number | undefined {
  const [first] = queryValues(query, name);
  if (first === undefined || !/^-?\d+$/.test(first)) return undefined;
  return Number(first);
}

/**
 * The page and limit a request asked for, with the defaults of spec/rules.yaml pagination.page_default applied. A value
 * that is not an integer counts as absent (a target may ignore it); callers skip values below 1,
 * whose answer the API description does not state.
 */
export function requestedPage(query: QueryValues): { page: number; limit: number; limitGiven: boolean } {
  const limit = queryInteger(query, 'limit');
  return { page: queryInteger(query, 'page') ?? 1, limit: limit ?? DEFAULT_LIMIT, limitGiven: limit !== undefined };
}

/**
 * Values at a dotted path in an item, where `[]` walks an array: `benefits[].id` gives every
 * benefit id. Missing steps give no values; `null` is kept as a value.
 */
export function valuesAtPath(item: unknown, path: string): unknown[] {
  let current: unknown[] = [item];
  for (const step of path.split('.')) {
    const walk = step.endsWith('[]');
    const key = walk ? step.slice(0, -2) : step;
    const next: unknown[] = [];
    for (const value of current) {
      if (value === null || typeof value !== 'object') continue;
      if (!Object.hasOwn(value, key)) continue;
      const child = (value as Record<string, unknown>)[key];
      if (walk) {
        if (Array.isArray(child)) next.push(...child);
      } else {
        next.push(child);
      }
    }
    current = next;
  }
  return current;
}

const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An ISO 8601 date-time as microseconds since the epoch (keeps sub-millisecond precision, which
 * `Date.parse` drops), or undefined when it is not one.
 */
export function instantMicros(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ISO_INSTANT.exec(value);
  if (!match) return undefined;
  const [, seconds, fraction = '', zone] = match;
  const ms = Date.parse(`${seconds}${zone!.toUpperCase() === 'Z' ? 'Z' : zone}`);
  if (Number.isNaN(ms)) return undefined;
  return ms * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/**
 * Whether `a` may precede `b` in ascending order. Strings are allowed in either code-point or
 * case-insensitive locale order (the API description does not give a collation), date-times
 * compare as instants, numbers and booleans as values. Returns undefined when the two cannot be
 * compared (null, mixed types), in which case nothing may be asserted.
 */
export function mayPrecede(a: unknown, b: unknown): boolean | undefined {
  if (a === null || b === null || a === undefined || b === undefined) return undefined;
  if (typeof a === 'number' && typeof b === 'number') return a <= b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) <= Number(b);
  if (typeof a === 'string' && typeof b === 'string') {
    const ta = instantMicros(a);
    const tb = instantMicros(b);
    if (ta !== undefined && tb !== undefined) return ta <= tb;
    return a <= b || a.localeCompare(b, 'en', { sensitivity: 'base' }) <= 0;
  }
  return undefined;
}

/** Whether two values are equal for the purpose of ordering (so the next criterion decides). */
export function sameSortValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    const ta = instantMicros(a);
    const tb = instantMicros(b);
    if (ta !== undefined && tb !== undefined) return ta === tb;
  }
  return a === b;
}

/** Short JSON for messages, cut at `max` characters. */
export function brief(value: unknown, max = 160): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * When an answer was given, in epoch milliseconds: its `Date` header (the target's clock, to the
 * second), or undefined when it has none or an unreadable one. A check that needs the answer's time
 * reads it there, so that its verdict on a recorded exchange is the same whenever it is judged.
 * @see RFC 9110 section 6.6.1 (Date)
 */
export function answerDateMs(exchange: Exchange): number | undefined {
  const date = exchange.response?.headers.date;
  const parsed = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** The JSON object of a request body (JSON or form-encoded), or an empty one. */
export function requestFields(exchange: Exchange): Record<string, unknown> {
  const { body, headers } = exchange.request;
  if (body === undefined || body === '') return {};
  if ((headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** How far two clocks may disagree before an instant compared across them is a finding, in milliseconds (a Date header is whole seconds). */
export const CLOCK_SKEW_MS = 60_000;

/**
 * The identity of a secret value (a token): the value itself, or, in a recording whose secrets are
 * redacted (docs/observed.md, Recording), the placeholder that names it: `[redacted:VAR]`, which an
 * answer carries padded with `x` to the secret's length and a request sending it back carries alone.
 */
export function secretIdentity(value: string): string {
  return /^\[redacted:[A-Z0-9_]+\]/.exec(value)?.[0] ?? value;
}
