/**
 * One typed in-memory collection of the store ({@link Collection}), indexed by organization, by the
 * secondary keys that listing needs, and in the sorted orders lists ask for, all kept up to date as
 * records change, so that a list request costs its page rather than the table. A stored record is
 * changed only through {@link Collection.update}. Also the change counting the collections of one
 * store share ({@link ChangeCounter}) and the recording of what a function reads of them
 * ({@link recordReads}, {@link readsCurrent}), by which a serialization is kept until something it
 * read changes.
 * @see docs/design.md (Reference server); docs/decisions.md (Reference server internals)
 */

import type { BaseRecord } from './records.js';

/** Orders records; negative when `a` comes first. */
export type Comparator<T> = (a: T, b: T) => number;

/** A value a record is filed under in a secondary index (compared as Map keys are: SameValueZero). */
export type IndexValue = string | number | boolean | null;

/** Secondary indexes of a collection: index name to the values a record is filed under (none, one or several). */
export type IndexKeys<T> = Record<string, (record: T) => readonly IndexValue[]>;

/** Told of every record a collection inserts, updates or deletes (state persistence journals them). */
export type RecordListener = (collection: Collection<BaseRecord>, id: string, deleted: boolean) => void;

/** Counts the changes of all the collections of one store, so that a cache can tell whether anything changed. */
export class ChangeCounter {
  /** Changes so far: records inserted, updated or deleted, collections cleared, notices counted with `markStoreChanged` (store.ts). */
  count = 0;
  /** Set by `trackRecordChanges` (store.ts). */
  onRecord: RecordListener | undefined;
  /** Set by `trackRecordChanges` (store.ts): called when `clearStore` (store.ts) empties the store. */
  onClear: (() => void) | undefined;
}

/** One order of a collection kept up to date: per organization, every record sorted by `compare`. */
interface KeptOrder<T> {
  compare: Comparator<T>;
  /** The order reads other collections' records (a subscription sorted by its product's name). */
  foreign: boolean;
  /** Changes elsewhere in the store when it was built; a foreign order is dropped once they differ. */
  foreignStamp: number;
  /** Built lazily, per organization, on first use. */
  byOrganization: Map<string, T[]>;
}

const EMPTY_SET: ReadonlySet<never> = new Set();

/** The key of one value of one index in {@link Collection}'s membership stamps (values of different types never share one). */
function keyOf(indexName: string, value: IndexValue): string {
  return `${indexName}\u0000${typeof value}\u0000${String(value)}`;
}

/** The first position of `list` whose record sorts after `record`: where to insert it. */
function insertPosition<T>(list: readonly T[], record: T, compare: Comparator<T>): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(list[middle]!, record) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The position of `record` in `list` (sorted by `compare`, which ties no two records), or -1. */
function positionOf<T>(list: readonly T[], record: T, compare: Comparator<T>): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(list[middle]!, record) < 0) low = middle + 1;
    else high = middle;
  }
  // A record changed behind the collection's back is no longer where its values say: find it anyway.
  return list[low] === record ? low : list.indexOf(record);
}

/** Removes `record` from `list` (sorted by `compare`), if it is there. */
function removeFrom<T>(list: T[], record: T, compare: Comparator<T>): void {
  const position = positionOf(list, record, compare);
  if (position >= 0) list.splice(position, 1);
}

/**
 * What a function read from the collections while {@link recordReads} watched it, as a flat list
 * of entries `[collection, kind, key, value, stamp]`: kind 0 a record by id (`value` the record or
 * undefined, `stamp` its change stamp), kind 1 the membership of one index value (`count`), kind 2
 * the whole collection (a scan or a set of records, `stamp` the collection's change count), kind 3
 * the record `read` was given (`collection` null, `value` the record).
 */
export type Reads = unknown[];

let recording: Reads | undefined;
/** Grows with every change of any record or index value, in every store: equal stamps mean no change. */
let lastStamp = 0;
/** The change stamp of every stored record (one record may be stored in two collections: a product media file is also a file). */
const stamps = new WeakMap<object, number>();

/**
 * Runs `read` and notes every read it makes of any collection (see {@link Reads}), so that a value
 * computed from the store (a serialized record) can later be told still current or not by
 * {@link readsCurrent}, record by record rather than by the whole store's revision. Reads outside
 * the collections (the clock, tokens, the event log) are not noted: `read` must not depend on them.
 * @param subject the stored record `read` is given (and reads without a lookup), noted as read
 * @returns what `read` returned and the reads it made
 */
export function recordReads<R>(read: () => R, subject?: object): { result: R; reads: Reads } {
  const outer = recording;
  const reads: Reads = subject === undefined ? [] : [null, 3, '', subject, stamps.get(subject)];
  recording = reads;
  try {
    return { result: read(), reads };
  } finally {
    recording = outer;
    // A nested recording's reads are the outer one's too.
    if (outer) for (const read of reads) outer.push(read);
  }
}

/** Whether every read of `reads` would read the same today: no record, index value or scanned collection it read has changed. */
export function readsCurrent(reads: Reads): boolean {
  for (let i = 0; i < reads.length; i += 5) {
    const collection = reads[i] as Collection<BaseRecord> | null;
    if (collection === null) {
      if (stamps.get(reads[i + 3] as object) !== reads[i + 4]) return false;
    } else if (collection.readStamp(reads[i + 1] as number, reads[i + 2] as string, reads[i + 3]) !== reads[i + 4]) return false;
  }
  return true;
}

/**
 * One typed collection: records by id, by organization (insertion order), by secondary index
 * (value, then organization), and in the orders that lists use, kept sorted per organization as
 * records are inserted, updated and deleted. Records are plain objects shared with callers, so a
 * change to a stored record must go through {@link Collection.update}: a field assigned directly
 * leaves the indexes and orders describing the old value.
 * @see docs/design.md (Reference server: one in-memory store with the secondary indexes listing needs)
 */
export class Collection<T extends BaseRecord> {
  private readonly byId = new Map<string, T>();
  private readonly byOrganization = new Map<string, T[]>();
  private readonly indexes = new Map<string, Map<IndexValue, Map<string, Set<T>>>>();
  private readonly multiValued = new Set<string>();
  private readonly orders = new Map<string, KeptOrder<T>>();
  private ownChanges = 0;
  /** The stamp of the last change of membership of each index value, by {@link keyOf}. */
  private readonly keyStamps = new Map<string, number>();

  /**
   * @param indexKeys secondary index name to the values a record is filed under
   * @param changes the change counter shared by the collections of one store
   */
  private readonly indexKeys: IndexKeys<T>;
  readonly changes: ChangeCounter;

  constructor(indexKeys: IndexKeys<T> = {}, changes: ChangeCounter = new ChangeCounter()) {
    this.indexKeys = indexKeys;
    this.changes = changes;
    for (const name of Object.keys(indexKeys)) this.indexes.set(name, new Map());
  }

  /** Number of records. */
  get size(): number {
    return this.byId.size;
  }

  /** Adds a record. @throws Error when the id is already taken (a bug in the caller) */
  insert(record: T): T {
    if (this.byId.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    this.byId.set(record.id, record);
    stamps.set(record, ++lastStamp);
    const list = this.byOrganization.get(record.organization_id);
    if (list) list.push(record);
    else this.byOrganization.set(record.organization_id, [record]);
    for (const name of this.indexes.keys()) this.file(name, record, this.valuesOf(name, record));
    for (const order of this.currentOrders()) {
      const sorted = order.byOrganization.get(record.organization_id);
      sorted?.splice(insertPosition(sorted, record, order.compare), 0, record);
    }
    this.changed();
    this.changes.onRecord?.(this as unknown as Collection<BaseRecord>, record.id, false);
    return record;
  }

  /**
   * Changes fields of a stored record in place and moves it in every index and order; the only
   * way to change a stored record.
   * @returns the same record, changed
   * @throws Error when the record is not the one stored under its id, or the patch changes its id or organization (bugs)
   */
  update(record: T, patch: Partial<T>): T {
    if (this.byId.get(record.id) !== record) throw new Error(`record ${record.id} is not stored in this collection`);
    if ((patch.id !== undefined && patch.id !== record.id) || (patch.organization_id !== undefined && patch.organization_id !== record.organization_id)) {
      throw new Error(`record ${record.id}: id and organization_id never change`);
    }
    const before = new Map([...this.indexes.keys()].map((name) => [name, this.valuesOf(name, record)]));
    const orders = this.currentOrders();
    const lists = orders.map((order) => order.byOrganization.get(record.organization_id));
    lists.forEach((sorted, i) => {
      if (sorted) removeFrom(sorted, record, orders[i]!.compare);
    });
    Object.assign(record, patch);
    stamps.set(record, ++lastStamp);
    for (const [name, old] of before) {
      const now = this.valuesOf(name, record);
      if (now.length === old.length && now.every((value, i) => value === old[i])) continue;
      this.unfile(name, record, old);
      this.file(name, record, now);
    }
    lists.forEach((sorted, i) => {
      if (sorted) sorted.splice(insertPosition(sorted, record, orders[i]!.compare), 0, record);
    });
    this.changed();
    this.changes.onRecord?.(this as unknown as Collection<BaseRecord>, record.id, false);
    return record;
  }

  /** Removes the record with this id from the collection and every index and order. @returns the removed record, or undefined */
  delete(id: string): T | undefined {
    const record = this.byId.get(id);
    if (!record) return undefined;
    for (const order of this.currentOrders()) {
      const sorted = order.byOrganization.get(record.organization_id);
      if (sorted) removeFrom(sorted, record, order.compare);
    }
    for (const name of this.indexes.keys()) this.unfile(name, record, this.valuesOf(name, record));
    const list = this.byOrganization.get(record.organization_id)!;
    list.splice(list.indexOf(record), 1);
    if (list.length === 0) this.byOrganization.delete(record.organization_id);
    this.byId.delete(id);
    this.changed();
    this.changes.onRecord?.(this as unknown as Collection<BaseRecord>, id, true);
    return record;
  }

  /** The record with this id, or undefined. */
  get(id: string): T | undefined {
    const record = this.byId.get(id);
    if (recording) recording.push(this, 0, id, record, record === undefined ? 0 : stamps.get(record));
    return record;
  }

  /** Every record, in insertion order. */
  all(): IterableIterator<T> {
    this.scanned();
    return this.byId.values();
  }

  /** The records of one organization, in insertion order (empty for an unknown organization); callers must not mutate the array. */
  inOrganization(organizationId: string): readonly T[] {
    this.scanned();
    return this.byOrganization.get(organizationId) ?? [];
  }

  /**
   * The stamp a read of {@link Reads} would note now: kind 0 the stamp of the record stored under
   * `key` if it is `value` (else -1), kind 1 the membership stamp of the index value `key`, kind 2
   * the collection's change count.
   */
  readStamp(kind: number, key: string, value: unknown): number | undefined {
    if (kind === 0) {
      const record = this.byId.get(key);
      if (record !== value) return -1;
      return record === undefined ? 0 : stamps.get(record);
    }
    if (kind === 1) return this.keyStamps.get(key) ?? 0;
    return this.ownChanges;
  }

  /**
   * The records of one organization sorted by `compare`, which must tie no two records (end with
   * the id). The order is built on first use under `orderName` and then kept up to date by
   * insert, update and delete; callers must not mutate the array.
   * @param orderName names the order `compare` gives (the same name must always mean the same order)
   * @param foreign whether `compare` reads other collections' records: such an order is rebuilt after any change elsewhere in the store
   */
  sorted(organizationId: string, orderName: string, compare: Comparator<T>, foreign = false): readonly T[] {
    this.scanned();
    let order = this.orders.get(orderName);
    if (!order || this.isStale(order)) {
      order = { compare, foreign, foreignStamp: this.foreignChanges(), byOrganization: new Map() };
      this.orders.set(orderName, order);
    }
    let sorted = order.byOrganization.get(organizationId);
    if (!sorted) {
      sorted = [...this.inOrganization(organizationId)].sort(order.compare);
      order.byOrganization.set(organizationId, sorted);
    }
    return sorted;
  }

  /** Removes every record (the control API's reset). */
  clear(): void {
    this.byId.clear();
    this.byOrganization.clear();
    this.orders.clear();
    for (const index of this.indexes.values()) index.clear();
    for (const key of this.keyStamps.keys()) this.keyStamps.set(key, ++lastStamp);
    this.multiValued.clear();
    this.changed();
  }

  /** The records filed under `value` in the secondary index `indexName`, of every organization. @throws Error for an unknown index */
  lookup(indexName: string, value: IndexValue): readonly T[] {
    this.scanned();
    const byOrganization = this.index(indexName).get(value);
    if (!byOrganization) return [];
    const records: T[] = [];
    for (const set of byOrganization.values()) records.push(...set);
    return records;
  }

  /** How many records are filed under `value` in `indexName`, without listing them. @throws Error for an unknown index */
  count(indexName: string, value: IndexValue): number {
    if (recording) {
      const key = keyOf(indexName, value);
      recording.push(this, 1, key, undefined, this.keyStamps.get(key) ?? 0);
    }
    let total = 0;
    for (const set of this.index(indexName).get(value)?.values() ?? []) total += set.size;
    return total;
  }

  /** The records of one organization filed under `value` in `indexName`; callers must not mutate the set. @throws Error for an unknown index */
  filedUnder(indexName: string, organizationId: string, value: IndexValue): ReadonlySet<T> {
    this.scanned();
    return this.index(indexName).get(value)?.get(organizationId) ?? EMPTY_SET;
  }

  /** The values of `indexName` that at least one record of the organization is filed under. @throws Error for an unknown index */
  valuesInOrganization(indexName: string, organizationId: string): IndexValue[] {
    this.scanned();
    return [...this.index(indexName)].filter(([, byOrganization]) => byOrganization.has(organizationId)).map(([value]) => value);
  }

  /** Whether a record has ever been filed under two values of `indexName` at once (so that its sets may overlap). */
  isMultiValued(indexName: string): boolean {
    return this.multiValued.has(indexName);
  }

  /** Notes, while {@link recordReads} watches, a read that depends on the whole collection. */
  private scanned(): void {
    if (recording) recording.push(this, 2, '', undefined, this.ownChanges);
  }

  private index(name: string): Map<IndexValue, Map<string, Set<T>>> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`no index ${name}`);
    return index;
  }

  private valuesOf(name: string, record: T): IndexValue[] {
    return [...new Set(this.indexKeys[name]!(record))];
  }

  private file(name: string, record: T, values: readonly IndexValue[]): void {
    if (values.length > 1) this.multiValued.add(name);
    const index = this.indexes.get(name)!;
    for (const value of values) {
      this.keyStamps.set(keyOf(name, value), ++lastStamp);
      let byOrganization = index.get(value);
      if (!byOrganization) index.set(value, (byOrganization = new Map()));
      let set = byOrganization.get(record.organization_id);
      if (!set) byOrganization.set(record.organization_id, (set = new Set()));
      set.add(record);
    }
  }

  private unfile(name: string, record: T, values: readonly IndexValue[]): void {
    const index = this.indexes.get(name)!;
    for (const value of values) {
      this.keyStamps.set(keyOf(name, value), ++lastStamp);
      const byOrganization = index.get(value);
      const set = byOrganization?.get(record.organization_id);
      if (!byOrganization || !set) continue;
      set.delete(record);
      if (set.size === 0) byOrganization.delete(record.organization_id);
      if (byOrganization.size === 0) index.delete(value);
    }
  }

  private changed(): void {
    this.ownChanges++;
    this.changes.count++;
  }

  private foreignChanges(): number {
    return this.changes.count - this.ownChanges;
  }

  private isStale(order: KeptOrder<T>): boolean {
    return order.foreign && order.foreignStamp !== this.foreignChanges();
  }

  /** The orders to keep up to date; stale foreign orders are dropped (rebuilt when next asked for). */
  private currentOrders(): KeptOrder<T>[] {
    const current: KeptOrder<T>[] = [];
    for (const [name, order] of this.orders) {
      if (this.isStale(order)) this.orders.delete(name);
      else current.push(order);
    }
    return current;
  }
}
