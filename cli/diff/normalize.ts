/**
 * Normalizing answers so that two correct implementations compare equal, and comparing one step:
 * status; body shape (every path with its JSON type, uuid and date-time told apart from other
 * strings); the values of booleans and of state and count fields; ids renamed by order of first
 * appearance on each side; timestamps reduced to their presence and format; the items of lists and
 * a product's `benefits` walked in a canonical order.
 * @see docs/decisions.md (Stateful conformance: "`conformance diff` compares normalized steps, not bodies");
 *   spec/rules.yaml conventions.identifiers_uuid, conventions.timestamps_utc
 */
import type { Observation } from '../../engine/stateful/real.js';

/** One normalized difference between the two sides of a step. */
export interface Difference {
  /** The observation, and the place in its answer for a shape or value (`POST /v1/customer-seats/claim body.seat.claimed_at`). */
  where: string;
  kind: 'request' | 'status' | 'shape' | 'value' | 'precondition';
  target: unknown;
  reference: unknown;
}

/** Keys whose value is compared (besides booleans, and ids mapped between the sides): states and counts the API defines. */
const VALUE_KEYS = new Set(['status', 'error', 'service', 'total_count', 'max_page', 'size', 'number', 'chunk_start', 'chunk_end', 'token_type', 'format']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Most items of an array that are compared one by one (the length is always compared). */
const MAX_ITEMS = 100;

/** Maps one side's ids to `#1`, `#2`... by order of first appearance, so that the two sides' ids compare. */
export class IdMap {
  readonly #ids = new Map<string, string>();
  /** The side-independent name of an id. */
  name(id: string): string {
    const key = id.toLowerCase();
    let name = this.#ids.get(key);
    if (!name) {
      name = `#${this.#ids.size + 1}`;
      this.#ids.set(key, name);
    }
    return name;
  }
}

/** A normalized JSON value: each path (`body.seat.status`) with its JSON type and, where compared, its value. */
export type Normalized = Map<string, { type: string; value?: unknown }>;

/** The JSON type of a value, strings refined to `uuid` and `date-time`, numbers to `integer`. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'absent';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return UUID.test(value) ? 'uuid' : DATE_TIME.test(value) ? 'date-time' : 'string';
  return typeof value;
}

/** Arrays whose order the API does not state: a list's `items` (no default order; records made in the same instant tie) and a product's `benefits` (a set). */
const UNORDERED_KEYS = new Set(['items', 'benefits']);

/** A value with its ids and timestamps masked (`"uuid"`, `"date-time"`), as JSON: what orders list items alike on both sides. */
function masked(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v !== 'uuid' && v !== 'date-time' ? (UUID.test(v) ? 'uuid' : DATE_TIME.test(v) ? 'date-time' : v) : v));
}

/**
 * Normalizes a JSON value into `out`: every path with its type; booleans, the values of
 * {@link VALUE_KEYS} (all values, with `allValues`) and, mapped through `ids`, uuids at `id` and
 * `*_id` keys. Object keys are walked in sorted order, and the items of {@link UNORDERED_KEYS}
 * arrays in the order of their masked JSON, so that both sides map ids alike.
 */
export function normalize(value: unknown, ids: IdMap, path = 'body', out: Normalized = new Map(), allValues = false): Normalized {
  const type = typeOf(value);
  const key = path.slice(path.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
  const entry: { type: string; value?: unknown } = { type };
  if (type === 'uuid' && (key === 'id' || key.endsWith('_id'))) entry.value = ids.name(value as string);
  else if (type === 'boolean' || (allValues && type !== 'object' && type !== 'array') || (VALUE_KEYS.has(key) && (type === 'string' || type === 'integer' || type === 'number'))) entry.value = value;
  if (type === 'array') entry.value = (value as unknown[]).length;
  out.set(path, entry);
  if (type === 'array') {
    const items = UNORDERED_KEYS.has(key) ? [...(value as unknown[])].sort((a, b) => (masked(a) < masked(b) ? -1 : masked(a) > masked(b) ? 1 : 0)) : (value as unknown[]);
    items.slice(0, MAX_ITEMS).forEach((item, index) => normalize(item, ids, `${path}[${index}]`, out, allValues));
  }
  if (type === 'object') {
    for (const child of Object.keys(value as object).sort()) normalize((value as Record<string, unknown>)[child], ids, `${path}.${child}`, out, allValues);
  }
  return out;
}

/** The normalized form of one observation: its status (or what stood for it) and its body. */
function normalizeObservation(observation: Observation, ids: IdMap): { status: string; body: Normalized } {
  if (observation.exchange) {
    const { response, transportError } = observation.exchange;
    if (!response) return { status: `no answer (${transportError?.code ?? 'unknown'})`, body: new Map() };
    return { status: String(response.status), body: response.json === undefined ? new Map([['body', { type: response.body ? 'text' : 'empty' }]]) : normalize(response.json, ids) };
  }
  if (observation.adapter) {
    if (observation.adapter.refused !== undefined) return { status: 'refused', body: new Map() };
    return { status: 'done', body: normalize(observation.adapter.result, ids, 'result') };
  }
  return { status: 'noted', body: normalize(observation.value, ids, 'value', new Map(), true) };
}

/**
 * Compares what the two sides observed in one step.
 * @returns every difference, in observation order; empty when the step is the same on both
 */
export function compareStep(target: readonly Observation[], reference: readonly Observation[], ids: { target: IdMap; reference: IdMap }): Difference[] {
  const differences: Difference[] = [];
  const count = Math.max(target.length, reference.length);
  for (let i = 0; i < count; i++) {
    const a = target[i];
    const b = reference[i];
    if (!a || !b || a.what !== b.what) {
      differences.push({ where: `observation ${i + 1}`, kind: 'request', target: a?.what ?? 'nothing', reference: b?.what ?? 'nothing' });
      break;
    }
    const left = normalizeObservation(a, ids.target);
    const right = normalizeObservation(b, ids.reference);
    if (left.status !== right.status) differences.push({ where: a.what, kind: 'status', target: left.status, reference: right.status });
    // Below a value whose type differs, every path differs too: only the topmost is reported.
    let differing: string | undefined;
    for (const path of [...new Set([...left.body.keys(), ...right.body.keys()])].sort()) {
      if (differing !== undefined && (path.startsWith(`${differing}.`) || path.startsWith(`${differing}[`))) continue;
      const l = left.body.get(path);
      const r = right.body.get(path);
      if (!l || !r || l.type !== r.type) {
        differing = path;
        differences.push({ where: `${a.what} ${path}`, kind: 'shape', target: l?.type ?? 'absent', reference: r?.type ?? 'absent' });
      } else if (JSON.stringify(l.value) !== JSON.stringify(r.value)) differences.push({ where: `${a.what} ${path}`, kind: 'value', target: l.value, reference: r.value });
    }
  }
  return differences;
}
