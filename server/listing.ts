/**
 * What every paginated list shares: sorting with a final id tie-breaker, filtering over the
 * caller's organizations, page arithmetic and the list body, including the list faults.
 * The seam for later indexes is {@link listRecords}: it starts from per-organization arrays
 * pre-sorted in the default order, so an unfiltered list in the default order costs its page.
 * @see shared/api-description.md, Endpoints (List filters); Limits
 */
import type { FaultSet } from './faults.js';
import type { Reply } from './replies.js';
import type { BaseRecord, Collection, Comparator, Metadata } from './store.js';
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
 * @see shared/api-description.md, Endpoints (List filters: a leading minus means descending)
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
 * @see shared/api-description.md, Endpoints (metadata[key]=value)
 */
export function matchesMetadata(metadata: Metadata, filter: Record<string, string[]>): boolean {
  for (const [key, wanted] of Object.entries(filter)) {
    if (!Object.hasOwn(metadata, key) || !wanted.includes(String(metadata[key]))) return false;
  }
  return true;
}

/** What {@link listRecords} needs to know about a resource. */
export interface ListSpec<T extends BaseRecord> {
  collection: Collection<T>;
  /** The organizations whose records may appear (the caller's, narrowed by an organization_id filter). */
  organizationIds: readonly string[];
  keys: SortKeys<T>;
  defaultSorting: readonly SortCriterion[];
  /** Undefined when nothing filters the records. */
  filter: ((record: T) => boolean) | undefined;
}

/**
 * One page of a resource's records, filtered and sorted.
 * @param faults `sorting_ignored` uses the default order; `pages_overlap` drops the id tie-breaker for a shuffle per `requestNumber`
 * @param requestNumber a number that changes on every request (the `pages_overlap` shuffle)
 */
export function listRecords<T extends BaseRecord>(spec: ListSpec<T>, params: ListParams, faults: FaultSet, requestNumber: number): RecordPage<T> {
  const defaultName = spec.defaultSorting.map((c) => (c.descending ? `-${c.key}` : c.key)).join(',');
  const defaultCompare = comparatorFor(spec.defaultSorting, spec.keys);
  const sorting = params.sorting.length > 0 && !faults.has('sorting_ignored') ? params.sorting : spec.defaultSorting;
  const isDefault = sorting.map((c) => (c.descending ? `-${c.key}` : c.key)).join(',') === defaultName;

  let records: readonly T[] =
    spec.organizationIds.length === 1
      ? spec.collection.sortedInOrganization(spec.organizationIds[0]!, defaultName, defaultCompare)
      : spec.organizationIds.flatMap((id) => spec.collection.inOrganization(id)).sort(defaultCompare);
  if (spec.filter) records = records.filter(spec.filter);
  if (faults.has('pages_overlap')) records = [...records].sort(comparatorFor(sorting, spec.keys, requestNumber));
  else if (!isDefault) records = [...records].sort(comparatorFor(sorting, spec.keys));

  const start = (params.page - 1) * params.limit;
  return { items: start < records.length ? records.slice(start, start + params.limit) : [], totalCount: records.length };
}

/**
 * The 200 list body `{items, pagination: {total_count, max_page}}` with max_page = ceil(total_count / limit).
 * @param faults `total_count_off_by_one` reports one item too many; `undocumented_status` answers an empty list 204
 * @see shared/api-description.md, Conventions (paginated list response)
 */
export function listReply(items: unknown[], totalCount: number, limit: number, faults: FaultSet): Reply {
  if (items.length === 0 && faults.has('undocumented_status')) return { status: 204 };
  const total = faults.has('total_count_off_by_one') ? totalCount + 1 : totalCount;
  return { status: 200, body: { items, pagination: { total_count: total, max_page: Math.ceil(total / limit) } } };
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
 * @see shared/api-description.md, Limits
 */
export function listParamsOf(query: ParsedQuery): ListParams {
  const { page, limit, sorting } = query.values;
  return {
    page: typeof page === 'number' ? page : 1,
    limit: typeof limit === 'number' ? limit : 10,
    sorting: parseSorting(Array.isArray(sorting) ? (sorting as string[]) : []),
  };
}
