/**
 * What the data-invariant checks share: the objects of a successful JSON body, each with its
 * JSON path, and whether an operation's documented success schemas can hold an object with given
 * properties at all (their `appliesTo`, so that an operation whose answers cannot show the
 * invariant is reported as skipped with the reason, never as passed).
 */
import type { Operation, Schema } from '../core/spec/load.js';
import type { Exchange } from '../core/types.js';

/** A JSON object of a response body. */
export type JsonObject = Record<string, unknown>;

/** An object of a body and where it is (`items[3].customer`, or `` for the body itself). */
export interface LocatedObject {
  path: string;
  object: JsonObject;
}

/**
 * Whether the value under `key` is a free-form map whose keys are the merchant's (metadata,
 * `*_metadata`, custom field data): its keys say nothing about the API's fields, so a
 * `paid_at` key there is no timestamp and a `customer`/`customer_id` pair no reference.
 * @see spec/openapi.yaml, schemas Metadata and Subscription (custom_field_data)
 */
export function isFreeFormKey(key: string): boolean {
  return key === 'metadata' || key.endsWith('_metadata') || key === 'custom_field_data';
}

/** A field the conventions call a timestamp: created_at, modified_at and every other `*_at` (spec/rules.yaml conventions.timestamps_utc). */
export function isTimestampField(name: string): boolean {
  return name.endsWith('_at');
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The parsed body of a 2xx response, or undefined (no response, another status, not JSON). */
export function successJson(exchange: Exchange): unknown {
  const response = exchange.response;
  if (!response || response.status < 200 || response.status > 299) return undefined;
  return response.json;
}

/**
 * A string under a key named `*_at` (created_at, modified_at and every other timestamp of the API's
 * conventions, spec/rules.yaml conventions.timestamps_utc) in an object of a body: its object's
 * place, its key and its text, whatever the text is (the checks judge it).
 */
export interface TimestampField {
  place: LocatedObject;
  key: string;
  value: string;
}

/** What one walk of a body found: its objects, and their `*_at` strings. */
interface Walked {
  objects: readonly LocatedObject[];
  timestamps: readonly TimestampField[];
}

/** Bodies whose walks {@link walkOf} keeps: the checks of one answer ask for its walk one after another. */
const RECENT_WALKS = 8;
/** The last {@link RECENT_WALKS} bodies walked, newest first, and their walks at the same index. */
const recentBodies: object[] = [];
const recentWalks: Walked[] = [];

/**
 * The walk of a parsed body (an object or array, at the root path), shared by the checks that
 * judge it. Kept for the last few bodies only, by identity, not in a WeakMap: V8's young-generation
 * collections keep the values of a WeakMap whose keys are young, so a WeakMap of walks promoted
 * every answer's parsed body to the old generation (about 10 MB per collection while judging list
 * pages), to be marked and swept later on the other cores.
 */
function walkOf(value: object): Walked {
  const at = recentBodies.indexOf(value);
  if (at >= 0) return recentWalks[at]!;
  const walk = walkObjects(value, '');
  recentBodies.unshift(value);
  recentWalks.unshift(walk);
  if (recentBodies.length > RECENT_WALKS) {
    recentBodies.pop();
    recentWalks.pop();
  }
  return walk;
}

/**
 * Every object of a JSON value, depth first, the value itself first when it is one; free-form
 * maps ({@link isFreeFormKey}) are not entered. The list of a parsed body (an object or array, at
 * the root path) is made once and shared: callers must not change it.
 */
export function objectsIn(value: unknown, path = ''): readonly LocatedObject[] {
  if (path !== '' || value === null || typeof value !== 'object') return walkObjects(value, path).objects;
  return walkOf(value).objects;
}

/**
 * Every string under a key named `*_at` in the objects of {@link objectsIn} (so never inside a
 * free-form map: a merchant's `paid_at` metadata key is no timestamp of the API), object by object
 * in that order, each object's keys in their order. Made in the same walk as {@link objectsIn}
 * and shared: callers must not change it.
 * @see spec/rules.yaml conventions.timestamps_utc ("Timestamps (created_at, modified_at and others named *_at)")
 */
export function timestampFieldsIn(value: unknown): readonly TimestampField[] {
  if (value === null || typeof value !== 'object') return [];
  return walkOf(value).timestamps;
}

/** What is above a located object: a place, an array on the way down from one ({@link Hop}), or the path a walk started at. */
type Parent = Place | Hop | string;

/**
 * Where a located object is: its path is written only when a finding asks for it, since most
 * objects of most answers are never named (and a page of records holds hundreds).
 */
class Place implements LocatedObject {
  readonly object: JsonObject;
  readonly #parent: Parent;
  readonly #step: string | number | undefined;
  #path: string | undefined;

  constructor(object: JsonObject, parent: Parent, step?: string | number) {
    this.object = object;
    this.#parent = parent;
    this.#step = step;
  }

  get path(): string {
    if (this.#path === undefined) this.#path = pathOf(this.#parent, this.#step);
    return this.#path;
  }
}

/** An array between objects (`items`, `rows[0]`): one per array, so that its items cost no step of their own. */
class Hop {
  readonly #parent: Parent;
  readonly #step: string | number;

  constructor(parent: Parent, step: string | number) {
    this.#parent = parent;
    this.#step = step;
  }

  get path(): string {
    return pathOf(this.#parent, this.#step);
  }
}

/** The path below `parent` reached by `step` (a key or an index). */
function pathOf(parent: Parent, step: string | number | undefined): string {
  const at = typeof parent === 'string' ? parent : parent.path;
  if (step === undefined) return at;
  if (typeof step === 'number') return `${at}[${step}]`;
  return at ? `${at}.${step}` : step;
}

function walkObjects(value: unknown, path: string): Walked {
  const objects: LocatedObject[] = [];
  const timestamps: TimestampField[] = [];
  // `parent` and `step` say where `node` is: under key or index `step` of `parent` (none for the walk's start).
  const visit = (node: unknown, parent: Parent, step: string | number | undefined): void => {
    if (Array.isArray(node)) {
      const hop = step === undefined ? parent : new Hop(parent, step);
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        // Only containers hold objects: a scalar item costs nothing.
        if (typeof item === 'object' && item !== null) visit(item, hop, i);
      }
      return;
    }
    if (!isObject(node)) return;
    const place = new Place(node, parent, step);
    objects.push(place);
    // The object's own timestamps first, then the objects below it, so that both lists follow the objects' order.
    for (const key in node) {
      const child = node[key];
      if (typeof child === 'string' && isTimestampField(key) && Object.hasOwn(node, key)) timestamps.push({ place, key, value: child });
    }
    for (const key in node) {
      const child = node[key];
      if (typeof child === 'object' && child !== null && Object.hasOwn(node, key) && !isFreeFormKey(key)) visit(child, place, key);
    }
  };
  visit(value, path, undefined);
  return { objects, timestamps };
}

/** A property of an object, when the object has it as its own key. */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** An object schema as seen by {@link documentsObject}: its property names, with `allOf` members merged. */
export interface ObjectSchemaView {
  names(): string[];
  has(name: string): boolean;
  /** The schemas a property has here (several when `allOf` members both declare it). */
  property(name: string): Schema[];
}

/** The view of one object schema: its properties and those of its `allOf` members. */
export function objectView(schema: Schema): ObjectSchemaView {
  const properties = new Map<string, Schema[]>();
  const collect = (node: Schema, seen: Set<Schema>): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
      properties.set(name, [...(properties.get(name) ?? []), child]);
    }
    for (const member of (node.allOf ?? []) as Schema[]) collect(member, seen);
  };
  collect(schema, new Set());
  return { names: () => [...properties.keys()], has: (name) => properties.has(name), property: (name) => properties.get(name) ?? [] };
}

/** The schemas of an operation's documented 2xx JSON responses (dereferenced). */
export function successSchemas(operation: Operation): Schema[] {
  const responses = (operation.raw.responses ?? {}) as Record<string, Schema>;
  const schemas: Schema[] = [];
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2(\d\d|XX)$/i.test(status)) continue;
    for (const [mediaType, content] of Object.entries((response?.content ?? {}) as Record<string, Schema>)) {
      if (/json/i.test(mediaType) && content?.schema) schemas.push(content.schema as Schema);
    }
  }
  return schemas;
}

/**
 * Whether any schema reachable from `schemas` (through properties, items, `allOf`, `anyOf`,
 * `oneOf`, `additionalProperties`) describes an object that satisfies `test`.
 */
export function schemaHolds(schemas: readonly Schema[], test: (object: ObjectSchemaView) => boolean): boolean {
  const seen = new Set<Schema>();
  const stack = [...schemas];
  while (stack.length > 0) {
    const schema = stack.pop();
    if (!schema || typeof schema !== 'object' || seen.has(schema)) continue;
    seen.add(schema);
    if (schema.properties || schema.allOf) {
      if (test(objectView(schema))) return true;
    }
    for (const child of Object.values((schema.properties ?? {}) as Record<string, Schema>)) stack.push(child);
    for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const) {
      if (Array.isArray(schema[key])) stack.push(...(schema[key] as Schema[]));
    }
    for (const key of ['items', 'additionalProperties'] as const) {
      if (schema[key] && typeof schema[key] === 'object') stack.push(schema[key] as Schema);
    }
  }
  return false;
}

/** {@link schemaHolds} over the operation's documented 2xx JSON responses. */
export function documentsObject(operation: Operation, test: (object: ObjectSchemaView) => boolean): boolean {
  return schemaHolds(successSchemas(operation), test);
}

/**
 * Whether an object is a subscription: it names and embeds its product and has the
 * subscription-only fields current_period_start and cancel_at_period_end.
 * @see spec/openapi.yaml, schema Subscription
 */
export function isSubscription(object: JsonObject): boolean {
  return ['product_id', 'product', 'current_period_start', 'cancel_at_period_end'].every((key) => Object.hasOwn(object, key));
}

/**
 * {@link isSubscription} for a schema, whose embedded product schema has `productField`
 * (undefined: any product).
 */
export function isSubscriptionSchema(object: ObjectSchemaView, productField?: string): boolean {
  if (!['product_id', 'product', 'current_period_start', 'cancel_at_period_end'].every((key) => object.has(key))) return false;
  return productField === undefined || object.property('product').some((product) => schemaHolds([product], (view) => view.has(productField)));
}

/**
 * The product a subscription embeds when it is the one its product_id names (a mismatch is
 * `embedded_references_consistent`'s finding, and says nothing about the named product).
 */
export function namedProduct(subscription: JsonObject): JsonObject | undefined {
  const product = own(subscription, 'product');
  const productId = own(subscription, 'product_id');
  if (!isObject(product) || typeof productId !== 'string') return undefined;
  const id = own(product, 'id');
  return typeof id === 'string' && id.toLowerCase() === productId.toLowerCase() ? product : undefined;
}

/** Up to `max` entries, then `(+n more)`, for messages. */
export function listed(entries: readonly string[], max = 5): string {
  return entries.slice(0, max).join('; ') + (entries.length > max ? ` (+${entries.length - max} more)` : '');
}
