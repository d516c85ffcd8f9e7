/**
 * What every paginated list shares: sorting with a final id tie-breaker, filtering over the
 * caller's organizations, page arithmetic and the list body, including the list faults.
 * A list costs its page, not the table, where the query allows it: equality filters are answered
 * by the collection's secondary indexes (intersected from the smallest set), `total_count` by
 * the sizes of those sets, and a single-key order by the collection's kept sorted order, walked
 * until the page is full. Other filters (substrings, dates, metadata) are tested record by record.
 * @see spec/rules.yaml lists.sorting, lists.filters, limits.page_size, pagination.counts
 * @see docs/design.md (Reference server: a list costs its page, not the table)
 */
import { Collection, readsCurrent, recordReads, type Comparator, type IndexValue, type Reads } from './collection.js';
import { assembleGzip, storedPiece, type CodedPiece } from './content-coding.js';
import type { FaultSet } from './faults.js';
import type { BaseRecord, Metadata } from './records.js';
import type { Reply } from './replies.js';
import { storeRevision, type Store } from './store.js';
import { listedOrganizations } from './tenancy.js';
import type { ParsedQuery } from './validation.js';

/** A value a record sorts by; null sorts last in both directions. */
export type SortValue = string | number | null;

/** The sort keys of a resource: key name (as in `sorting`) to the value a record sorts by. */
export type SortKeys<T> = Record<string, (record: T) => SortValue>;

/** One criterion of `sorting`: `-name` is `{key: 'name', descending: true}`. */
export interface SortCriterion {
  key: string;
  descending: boolean;
}

/** Page, size and order of a list request, as validated. */
export interface ListParams {
  /** 1-based. */
  page: number;
  /** Items per page. */
  limit: number;
  /** Applied in order; empty for the resource's default order. */
  sorting: SortCriterion[];
}

/** A page of records and the number of records that matched. */
export interface RecordPage<T> {
  items: T[];
  totalCount: number;
}

/**
 * Parses `sorting` values (`name`, `-created_at`).
 * @see spec/rules.yaml lists.sorting (a leading minus means descending)
 */
export function parseSorting(values: readonly string[]): SortCriterion[] {
  return values.map((value) => (value.startsWith('-') ? { key: value.slice(1), descending: true } : { key: value, descending: false }));
}

function compareValues(a: SortValue, b: SortValue, descending: boolean): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const order = a < b ? -1 : 1;
  return descending ? -order : order;
}

/** A fixed pseudo-random order of ids for one nonce (FNV-1a); the `pages_overlap` fault's unstable tie order. */
function shuffledRank(id: string, nonce: number): number {
  let hash = 0x811c9dc5 ^ nonce;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * A comparator applying the criteria in order, then `id` ascending so that no two records tie.
 * Strings compare by UTF-16 code units (like a C collation); null values sort last both ways.
 * @param tieNonce when given, ties are broken by a per-nonce shuffle instead of by id (fault `pages_overlap`)
 * @throws Error for a key missing from `keys` (the spec and the resource disagree: a bug)
 */
export function comparatorFor<T extends BaseRecord>(criteria: readonly SortCriterion[], keys: SortKeys<T>, tieNonce?: number): Comparator<T> {
  const steps = criteria.map(({ key, descending }) => {
    const value = keys[key];
    if (!value) throw new Error(`no sort key ${key}`);
    return { value, descending };
  });
  return (a, b) => {
    for (const { value, descending } of steps) {
      const order = compareValues(value(a), value(b), descending);
      if (order !== 0) return order;
    }
    if (tieNonce !== undefined) return shuffledRank(a.id, tieNonce) - shuffledRank(b.id, tieNonce);
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/**
 * Whether a metadata object matches a metadata filter: for every key, `String(value)` equals one
 * of the filter's values (keys AND, values OR).
 * @see spec/rules.yaml lists.filters.metadata
 */
export function matchesMetadata(metadata: Metadata, filter: Record<string, string[]>): boolean {
  for (const [key, wanted] of Object.entries(filter)) {
    if (!Object.hasOwn(metadata, key) || !wanted.includes(String(metadata[key]))) return false;
  }
  return true;
}

/**
 * An equality filter answered by a secondary index of the collection (see collection.ts): a record
 * matches when it is filed under any of `values`. The index name `id` matches record ids.
 */
export interface IndexCondition {
  index: string;
  values: readonly IndexValue[];
}

/** What {@link listRecords} needs to know about a resource. */
export interface ListSpec<T extends BaseRecord> {
  collection: Collection<T>;
  /** The organizations whose records may appear (the caller's, narrowed by an organization_id filter). */
  organizationIds: readonly string[];
  keys: SortKeys<T>;
  /** Sort keys whose value reads other records (a subscription's product name): orders by them are rebuilt after any change elsewhere in the store. */
  foreignKeys?: readonly string[];
  defaultSorting: readonly SortCriterion[];
  /** Equality filters answered by the collection's indexes; every one must hold. */
  conditions?: readonly IndexCondition[];
  /** The other filters, tested record by record; undefined when nothing else filters. */
  filter: ((record: T) => boolean) | undefined;
}

/** Records that may match a list's conditions: a set of the collection's index, or one computed from several. */
interface Candidates<T> extends Iterable<T> {
  readonly size: number;
  has(record: T): boolean;
}

/** The union of sets that share no record (the sets of one single-valued index), without copying them. */
class DisjointUnion<T> implements Candidates<T> {
  readonly size: number;
  private readonly sets: readonly ReadonlySet<T>[];

  constructor(sets: readonly ReadonlySet<T>[]) {
    this.sets = sets;
    this.size = sets.reduce((total, set) => total + set.size, 0);
  }

  has(record: T): boolean {
    return this.sets.some((set) => set.has(record));
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const set of this.sets) yield* set;
  }
}

/** The records of one organization that satisfy one condition. */
function conditionCandidates<T extends BaseRecord>(collection: Collection<T>, organizationId: string, condition: IndexCondition): Candidates<T> {
  const values = [...new Set(condition.values)];
  if (condition.index === 'id') {
    const found = new Set<T>();
    for (const id of values) {
      const record = typeof id === 'string' ? collection.get(id) : undefined;
      if (record && record.organization_id === organizationId) found.add(record);
    }
    return found;
  }
  const sets = values.map((value) => collection.filedUnder(condition.index, organizationId, value)).filter((set) => set.size > 0);
  if (sets.length === 1) return sets[0]!;
  if (!collection.isMultiValued(condition.index)) return new DisjointUnion(sets);
  return new Set(sets.flatMap((set) => [...set]));
}

/**
 * The records of one organization that satisfy every condition, or undefined when there is none
 * (every record is a candidate). Several conditions are intersected from the smallest, so the
 * cost is that of the smallest set.
 */
function candidatesOf<T extends BaseRecord>(collection: Collection<T>, organizationId: string, conditions: readonly IndexCondition[] | undefined): Candidates<T> | undefined {
  if (!conditions || conditions.length === 0) return undefined;
  const [smallest, ...others] = conditions.map((condition) => conditionCandidates(collection, organizationId, condition)).sort((a, b) => a.size - b.size);
  if (others.length === 0) return smallest;
  const both = new Set<T>();
  for (const record of smallest!) if (others.every((other) => other.has(record))) both.add(record);
  return both;
}

/** How a list is ordered: the comparator, and the name of the collection's kept order when one single key sorts it. */
interface ListOrder<T> {
  compare: Comparator<T>;
  keptOrder: string | undefined;
  foreign: boolean;
}

/** The first `take` records of one organization that match, in order, and how many match. */
interface OrganizationPage<T> {
  items: T[];
  total: number;
}

/**
 * The first `take` matching records of one organization, and how many match. Two ways, the
 * cheaper one chosen by the sizes at hand: walk the collection's kept order, testing each record,
 * until `take` candidates are found (with a record-by-record filter, to the end, to count them);
 * or sort the candidates themselves. Without a record-by-record filter the count is the size of
 * the candidates, which the indexes know.
 */
function organizationPage<T extends BaseRecord>(spec: ListSpec<T>, organizationId: string, order: ListOrder<T>, take: number): OrganizationPage<T> {
  const { collection, filter } = spec;
  const everything = collection.inOrganization(organizationId);
  const candidates = candidatesOf(collection, organizationId, spec.conditions);
  const size = candidates?.size ?? everything.length;
  if (size === 0) return { items: [], total: 0 };

  const walkCost = order.keptOrder === undefined ? Infinity : filter ? everything.length : Math.min(everything.length, (take * everything.length) / size);
  const sortCost = size * Math.log2(size + 1);
  if (walkCost > sortCost) {
    const pool = [...(candidates ?? everything)];
    const matching = (filter ? pool.filter(filter) : pool).sort(order.compare);
    return { items: matching.slice(0, take), total: matching.length };
  }

  const sorted = collection.sorted(organizationId, order.keptOrder!, order.compare, order.foreign);
  if (!candidates && !filter) return { items: sorted.slice(0, take), total: size };
  const items: T[] = [];
  let total = 0;
  for (const record of sorted) {
    if (candidates && !candidates.has(record)) continue;
    if (filter && !filter(record)) continue;
    total++;
    if (items.length < take) items.push(record);
    else if (!filter) break;
  }
  return { items, total: filter ? total : size };
}

/**
 * One page of a resource's records, filtered and sorted. A list costs its page where the query
 * allows it: see {@link organizationPage}. With several organizations, each contributes its first
 * `page * limit` records and the page is cut from their merge.
 * @param faults `sorting_ignored` uses the default order; `pages_overlap` drops the id tie-breaker for a shuffle per `requestNumber`;
 *   `list_leaks_other_org` lists every organization's records (server/tenancy.ts)
 * @param requestNumber a number that changes on every request (the `pages_overlap` shuffle)
 */
export function listRecords<T extends BaseRecord>(spec: ListSpec<T>, params: ListParams, faults: FaultSet, requestNumber: number): RecordPage<T> {
  const organizationIds = listedOrganizations(spec.collection, spec.organizationIds, faults);
  const sorting = params.sorting.length > 0 && !faults.has('sorting_ignored') ? params.sorting : spec.defaultSorting;
  const start = (params.page - 1) * params.limit;
  const take = start + params.limit;

  if (faults.has('pages_overlap')) {
    // The fault's order changes with every request, so no kept order applies: sort every match.
    const defaultCompare = comparatorFor(spec.defaultSorting, spec.keys);
    const matching = organizationIds
      .flatMap((id) => {
        const candidates = candidatesOf(spec.collection, id, spec.conditions);
        return [...(candidates ?? spec.collection.inOrganization(id))];
      })
      .filter((record) => !spec.filter || spec.filter(record))
      .sort(defaultCompare)
      .sort(comparatorFor(sorting, spec.keys, requestNumber));
    return { items: matching.slice(start, take), totalCount: matching.length };
  }

  const order: ListOrder<T> = {
    compare: comparatorFor(sorting, spec.keys),
    keptOrder: sorting.length === 1 ? sortingName(sorting) : undefined,
    foreign: sorting.some((criterion) => spec.foreignKeys?.includes(criterion.key) ?? false),
  };
  const pages = organizationIds.map((id) => organizationPage(spec, id, order, take));
  const totalCount = pages.reduce((total, page) => total + page.total, 0);
  const merged = pages.length === 1 ? pages[0]!.items : pages.flatMap((page) => page.items).sort(order.compare);
  return { items: merged.slice(start, take), totalCount };
}

/** `name,-created_at` for the criteria name ascending, then created_at descending. */
function sortingName(criteria: readonly SortCriterion[]): string {
  return criteria.map((criterion) => (criterion.descending ? `-${criterion.key}` : criterion.key)).join(',');
}

/**
 * The 200 list body `{items, pagination: {total_count, max_page}}` with max_page = ceil(total_count / limit).
 * @param faults `total_count_off_by_one` reports one item too many; `undocumented_status` answers an empty list 204
 * @see spec/rules.yaml pagination.counts
 */
export function listReply(items: unknown[], totalCount: number, limit: number, faults: FaultSet): Reply {
  if (items.length === 0 && faults.has('undocumented_status')) return { status: 204 };
  const total = faults.has('total_count_off_by_one') ? totalCount + 1 : totalCount;
  return { status: 200, body: { items, pagination: { total_count: total, max_page: Math.ceil(total / limit) } } };
}

/** Most serialized items {@link serializedListReply} keeps per store and variant (about 5 KB each for a subscription). */
export const SERIALIZED_ITEMS_KEPT = 4096;

/** An item as serialized, with the reads of the store it was made from and {@link storeRevision} when they were last found current. */
interface SerializedItem extends CodedPiece {
  reads: Reads;
  checkedAt: number;
}

const serializedItems = new WeakMap<Store, Map<string, Map<object, SerializedItem>>>();
const ITEMS_OPEN = storedPiece(Buffer.from('{"items":['));
const COMMA = storedPiece(Buffer.from(','));

/** The serialized items of one store and variant. */
function serializedItemsOf(store: Store, variant: string): Map<object, SerializedItem> {
  let variants = serializedItems.get(store);
  if (!variants) {
    serializedItems.set(store, (variants = new Map()));
  }
  let items = variants.get(variant);
  if (!items) variants.set(variant, (items = new Map()));
  return items;
}

/**
 * {@link listReply} written as JSON bytes, byte for byte what its body would serialize to, from
 * each record's serialization kept for as long as what it read is unchanged: the serializer's
 * reads of the store are recorded ({@link recordReads}) and checked again once after each change
 * of the store ({@link readsCurrent}), so a write makes only the items it touched be serialized
 * again. Each item also keeps its DEFLATE coding, from which a gzip body is assembled without
 * compressing the page ({@link assembleGzip}).
 * @param serialize a record as the API shows it: a pure function of the store's collections (no clock, no tokens)
 * @param variant what else the serialization depends on (API version, fault options); the faults
 *   switched on are added to it, since serializers apply some of them
 * @param faults as {@link listReply}; `wrong_content_type` is written from objects, as text/plain
 */
export function serializedListReply<T extends object>(store: Store, records: readonly T[], totalCount: number, limit: number, faults: FaultSet, serialize: (record: T) => unknown, variant: string): Reply {
  if (faults.has('wrong_content_type')) return listReply(records.map(serialize), totalCount, limit, faults);
  if (records.length === 0 && faults.has('undocumented_status')) return { status: 204 };
  const total = faults.has('total_count_off_by_one') ? totalCount + 1 : totalCount;
  const kept = serializedItemsOf(store, faults.size > 0 ? `${variant} ${[...faults].sort().join(',')}` : variant);
  const revision = storeRevision(store);
  const pieces: CodedPiece[] = [ITEMS_OPEN];
  records.forEach((record, index) => {
    let item = kept.get(record);
    if (item && item.checkedAt !== revision) {
      if (readsCurrent(item.reads)) item.checkedAt = revision;
      else item = undefined;
    }
    if (!item) {
      const { result, reads } = recordReads(() => serialize(record), record);
      item = { json: Buffer.from(JSON.stringify(result)), reads, checkedAt: revision };
      kept.delete(record);
      kept.set(record, item);
      if (kept.size > SERIALIZED_ITEMS_KEPT) kept.delete(kept.keys().next().value!);
    }
    if (index > 0) pieces.push(COMMA);
    pieces.push(item);
  });
  pieces.push(storedPiece(Buffer.from(`],"pagination":{"total_count":${total},"max_page":${Math.ceil(total / limit)}}}`)));
  const body = Buffer.concat(pieces.map((piece) => piece.json));
  return { status: 200, body, headers: { 'content-type': 'application/json; charset=utf-8' }, coded: { gzip: () => assembleGzip(pieces, body) } };
}

/**
 * The organizations a list may show: the caller's, narrowed by an `organization_id` filter; a
 * filter naming another organization leaves none (an empty list, never an error).
 */
export function visibleOrganizations(callerOrganizations: readonly string[], filter: readonly string[] | undefined): string[] {
  return filter ? callerOrganizations.filter((id) => filter.includes(id)) : [...callerOrganizations];
}

/**
 * Page, limit and sorting of a validated query (defaults come from the spec: page 1, limit 10).
 * @see spec/rules.yaml pagination.page_default, limits.page_size
 */
export function listParamsOf(query: ParsedQuery): ListParams {
  const { page, limit, sorting } = query.values;
  return {
    page: typeof page === 'number' ? page : 1,
    limit: typeof limit === 'number' ? limit : 10,
    sorting: parseSorting(Array.isArray(sorting) ? (sorting as string[]) : []),
  };
}
