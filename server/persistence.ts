/**
 * Snapshots of the reference server's store for `--state FILE` (state-journal.ts journals the
 * changes in between): a snapshot is written atomically (a temporary file in the same directory,
 * fsync, rename over the old file, fsync of the directory), so a process killed at any moment
 * leaves either the previous complete file or the new one. Format 2 (written) is one JSON line
 * per record, map entry or list item after a header, and an end line that counts them, so that a
 * live store can be written in slices that yield to the event loop and a file cut short is told
 * from a complete one; format 1 (one JSON document) is still read. A file this code cannot read
 * (corrupt JSON, another format or version, cut short, records that do not fit the store) stops
 * the start with CNF_ERR_CONFIG_INVALID rather than being silently replaced.
 *
 * The snapshot is generic over the store's fields: every `Collection` (records in insertion
 * order, so that restoring through `insert` rebuilds the same indexes), `Map` and array, plus the
 * id sequence and clock offset. Buffers, Sets and Maps inside records are tagged (`{"$b": base64}`,
 * `{"$s": [...]}`, `{"$m": [[k, v], ...]}`), plain objects with a `$` key are wrapped
 * (`{"$o": {...}}`) so that no value can pass for a tag, and a record held by two collections (a
 * product media file is also a file) is written once and referenced (`{"$same": [collection, id]}`)
 * so that it stays one object.
 * @see docs/reference-server.md (Durability (--state)); POSIX rename(2) (atomic replacement)
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { Collection } from './collection.js';
import type { BaseRecord } from './records.js';
import { entryProblem } from './state-shapes.js';
import { createStore, type Store } from './store.js';

/** The `format` field of a state file. */
export const STATE_FORMAT = 'billing-api-reference-state';
/** The version of the state file format this code writes and reads. */
export const STATE_FORMAT_VERSION = 2;

/** A JSON value as written in a snapshot. */
export type EncodedValue = null | boolean | number | string | EncodedValue[] | { [key: string]: EncodedValue };

/** Everything needed to rebuild a store: its seed, id sequence and clock offset, and every other field by name, encoded. */
export interface StoreSnapshot {
  seed: number;
  /** Ids handed out so far (store.idSequence). */
  idSequence: number;
  /** Milliseconds the control API advanced the clock by. */
  clockOffsetMs: number;
  /** Collections (arrays of records), maps and lists of the store, by field name. */
  data: Record<string, EncodedValue>;
}

/** The content of a state file of format 1 (one JSON document; still read, no longer written). */
export interface StateFileContent {
  format: typeof STATE_FORMAT;
  version: 1;
  /** When it was written (ISO 8601, the wall clock). */
  saved_at: string;
  store: StoreSnapshot;
}

/** Fields of the store that are not data: the clock function, and the numbers kept apart in the snapshot. */
const SCALAR_FIELDS = new Set(['seed', 'clock', 'idSequence', 'clockOffsetMs']);

/** Thrown while encoding or decoding; the callers turn it into a HarnessError or a bug report. */
class SnapshotError extends Error {}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Sets an own, enumerable data property: a key named `__proto__` stays data, never a prototype. */
function defineKey(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A value still to convert, and where its result goes. */
interface Task<T> {
  value: T;
  where: string;
  set(result: unknown): void;
}

/** Thrown by {@link encodeRecursively} past its depth: the iterative encoder takes over. */
const TOO_DEEP = Symbol('too deep');
/** Depth up to which {@link encodeRecursively} recurses (records are a few levels deep). */
const MAX_RECURSION = 64;

/** The same encoding as {@link encodeIteratively}, recursive and without building paths: ten times faster on records. */
function encodeRecursively(value: unknown, depth: number): EncodedValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new SnapshotError('not finite');
      return value;
    case 'object':
      break;
    default:
      throw new SnapshotError('not JSON');
  }
  if (depth > MAX_RECURSION) throw TOO_DEEP;
  if (Array.isArray(value)) {
    const items: EncodedValue[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = encodeRecursively(value[i], depth + 1);
    return items;
  }
  if (Buffer.isBuffer(value)) return { $b: value.toString('base64') };
  if (value instanceof Set) return { $s: [...value].map((item) => encodeRecursively(item, depth + 1)) };
  if (value instanceof Map) return { $m: [...value].map(([key, item]) => [encodeRecursively(key, depth + 1), encodeRecursively(item, depth + 1)]) };
  if (!isPlainObject(value)) throw new SnapshotError('not plain');
  const out: Record<string, EncodedValue> = {};
  let tagLike = false;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    if (key.startsWith('$')) tagLike = true;
    if (key === '__proto__') defineKey(out, key, encodeRecursively(item, depth + 1));
    else out[key] = encodeRecursively(item, depth + 1);
  }
  return tagLike ? { $o: out } : out;
}

/**
 * Encodes a value for JSON (Buffer, Set, Map tagged; plain objects with a `$` key wrapped):
 * recursively where it can, iteratively (any depth JSON itself can hold, and the path of a value
 * that cannot be encoded in the error) otherwise.
 * @throws SnapshotError for a value JSON cannot hold (a function, a class instance, a non-finite number), naming where it is
 */
export function encode(root: unknown, rootWhere: string): EncodedValue {
  try {
    return encodeRecursively(root, 0);
  } catch {
    // Too deep, or not encodable: the iterative encoder encodes it or says where it fails.
    return encodeIteratively(root, rootWhere);
  }
}

/**
 * Encodes a value for JSON (Buffer, Set, Map tagged; plain objects with a `$` key wrapped).
 * Iterative rather than recursive, so that any depth JSON itself can hold is kept.
 * @throws SnapshotError for a value JSON cannot hold (a function, a class instance, a non-finite number)
 */
function encodeIteratively(root: unknown, rootWhere: string): EncodedValue {
  let result: unknown = null;
  const tasks: Task<unknown>[] = [{ value: root, where: rootWhere, set: (v) => (result = v) }];
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    const { value, where, set } = task;
    if (value === null || value === undefined) {
      set(null);
      continue;
    }
    switch (typeof value) {
      case 'boolean':
      case 'string':
        set(value);
        continue;
      case 'number':
        if (!Number.isFinite(value)) throw new SnapshotError(`${where} is ${value}, which JSON cannot hold`);
        set(value);
        continue;
      case 'object':
        break;
      default:
        throw new SnapshotError(`${where} is a ${typeof value}, which cannot be persisted`);
    }
    if (Buffer.isBuffer(value)) {
      set({ $b: value.toString('base64') });
    } else if (Array.isArray(value) || value instanceof Set) {
      const items: unknown[] = [];
      set(Array.isArray(value) ? items : { $s: items });
      [...value].forEach((item, i) => tasks.push({ value: item, where: `${where}[${i}]`, set: (v) => (items[i] = v) }));
    } else if (value instanceof Map) {
      const entries: unknown[][] = [];
      set({ $m: entries });
      [...value].forEach(([key, item], i) => {
        const pair: unknown[] = [null, null];
        entries.push(pair);
        tasks.push({ value: key, where: `${where} key ${i}`, set: (v) => (pair[0] = v) });
        tasks.push({ value: item, where: `${where}[${i}]`, set: (v) => (pair[1] = v) });
      });
    } else if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      let tagLike = false;
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        if (key.startsWith('$')) tagLike = true;
        defineKey(out, key, null);
        tasks.push({ value: item, where: `${where}.${key}`, set: (v) => defineKey(out, key, v) });
      }
      set(tagLike ? { $o: out } : out);
    } else {
      throw new SnapshotError(`${where} is a ${(value as object).constructor?.name ?? 'non-plain object'}, which cannot be persisted`);
    }
  }
  return result as EncodedValue;
}

/** The same decoding as {@link decodeIteratively}, recursive and without building paths. */
function decodeRecursively(value: EncodedValue, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_RECURSION) throw TOO_DEEP;
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = decodeRecursively(value[i]!, depth + 1);
    return items;
  }
  const keys = Object.keys(value);
  let object = value;
  if (keys.length === 1 && keys[0]!.startsWith('$')) {
    const tag = keys[0]!;
    const inner = value[tag]!;
    if (tag === '$b' && typeof inner === 'string') return Buffer.from(inner, 'base64');
    if (tag === '$s' && Array.isArray(inner)) return new Set(inner.map((item) => decodeRecursively(item, depth + 1)));
    if (tag === '$m' && Array.isArray(inner)) {
      return new Map(inner.map((entry) => {
        if (!Array.isArray(entry) || entry.length !== 2) throw new SnapshotError('malformed map entry');
        return [decodeRecursively(entry[0]!, depth + 1), decodeRecursively(entry[1]!, depth + 1)] as const;
      }));
    }
    if (tag !== '$o' || inner === null || typeof inner !== 'object' || Array.isArray(inner)) throw new SnapshotError('unknown or malformed tag');
    object = inner;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (key === '__proto__') defineKey(out, key, decodeRecursively(object[key]!, depth + 1));
    else out[key] = decodeRecursively(object[key]!, depth + 1);
  }
  return out;
}

/**
 * Decodes what {@link encode} wrote: recursively where it can, iteratively (any depth, and the
 * path of a malformed tag in the error) otherwise.
 * @throws SnapshotError for an unknown or malformed tag, naming where it is
 */
export function decode(root: EncodedValue, rootWhere: string): unknown {
  try {
    return decodeRecursively(root, 0);
  } catch {
    return decodeIteratively(root, rootWhere);
  }
}

/**
 * Decodes what {@link encode} wrote. Iterative like it; Sets and Maps are built once their
 * contents are decoded (children before parents).
 * @throws SnapshotError for an unknown or malformed tag
 */
function decodeIteratively(root: EncodedValue, rootWhere: string): unknown {
  let result: unknown;
  const tasks: Task<EncodedValue>[] = [{ value: root, where: rootWhere, set: (v) => (result = v) }];
  const finishers: (() => void)[] = [];
  const decodeObject = (value: { [key: string]: EncodedValue }, where: string, set: (v: unknown) => void) => {
    const out: Record<string, unknown> = {};
    set(out);
    for (const [key, item] of Object.entries(value)) {
      defineKey(out, key, null);
      tasks.push({ value: item, where: `${where}.${key}`, set: (v) => defineKey(out, key, v) });
    }
  };
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    const { value, where, set } = task;
    if (value === null || typeof value !== 'object') {
      set(value);
    } else if (Array.isArray(value)) {
      const items: unknown[] = [];
      set(items);
      value.forEach((item, i) => tasks.push({ value: item, where: `${where}[${i}]`, set: (v) => (items[i] = v) }));
    } else {
      const keys = Object.keys(value);
      const tag = keys.length === 1 && keys[0]!.startsWith('$') ? keys[0]! : undefined;
      if (tag === undefined) {
        decodeObject(value, where, set);
        continue;
      }
      const inner = value[tag]!;
      if (tag === '$b' && typeof inner === 'string') {
        set(Buffer.from(inner, 'base64'));
      } else if (tag === '$s' && Array.isArray(inner)) {
        const items: unknown[] = [];
        inner.forEach((item, i) => tasks.push({ value: item, where: `${where}{${i}}`, set: (v) => (items[i] = v) }));
        finishers.push(() => set(new Set(items)));
      } else if (tag === '$m' && Array.isArray(inner)) {
        const pairs: [unknown, unknown][] = [];
        inner.forEach((entry, i) => {
          if (!Array.isArray(entry) || entry.length !== 2) throw new SnapshotError(`${where}: map entry ${i} is not a [key, value] pair`);
          const pair: [unknown, unknown] = [null, null];
          pairs.push(pair);
          tasks.push({ value: entry[0]!, where: `${where} key ${i}`, set: (v) => (pair[0] = v) });
          tasks.push({ value: entry[1]!, where: `${where}[${i}]`, set: (v) => (pair[1] = v) });
        });
        finishers.push(() => set(new Map(pairs)));
      } else if (tag === '$o' && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
        decodeObject(inner, where, set);
      } else {
        throw new SnapshotError(`${where}: unknown or malformed tag ${tag}`);
      }
    }
  }
  // A Set or Map created later is nested in one created earlier: build the inner ones first.
  for (let i = finishers.length - 1; i >= 0; i--) finishers[i]!();
  return result;
}

/**
 * The store as JSON-ready data: every collection, map and list, the seed, id sequence and clock
 * offset (not the clock itself, which the restoring server supplies).
 * @throws Error when a field holds a value the format cannot keep (a bug: a new kind of store field)
 */
export function snapshotStore(store: Store): StoreSnapshot {
  const data: Record<string, EncodedValue> = {};
  // Which collection first held each record object, to write a shared record once.
  const owners = new Map<object, string>();
  for (const [name, value] of Object.entries(store)) {
    if (SCALAR_FIELDS.has(name)) continue;
    try {
      if (value instanceof Collection) {
        const records: EncodedValue[] = [];
        for (const record of value.all() as IterableIterator<{ id: string }>) {
          const owner = owners.get(record);
          if (owner !== undefined) {
            records.push({ $same: [owner, record.id] });
          } else {
            owners.set(record, name);
            records.push(encode(record, `${name}[${record.id}]`));
          }
        }
        data[name] = records;
      } else if (value instanceof Map || Array.isArray(value)) {
        data[name] = encode(value, name);
      } else {
        throw new SnapshotError(`store field ${name} is neither a collection, a map nor a list`);
      }
    } catch (error) {
      throw new Error(`cannot snapshot the store: ${(error as Error).message}`, { cause: error });
    }
  }
  return { seed: store.seed, idSequence: store.idSequence, clockOffsetMs: store.clockOffsetMs, data };
}

/**
 * Rebuilds a store from a snapshot: a new store with the snapshot's seed and the given clock, its
 * collections filled through `insert` (which rebuilds every index) in the snapshot's order.
 * Fields the snapshot lacks (a collection added since it was written) stay empty.
 * @param options.clock the base clock (default the system clock); the snapshot's offset is added to it
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when the snapshot does not fit the store (unknown field, wrong kind of value, duplicate id)
 */
export function restoreStore(snapshot: StoreSnapshot, options: { clock?: () => Date; where?: (field: string, index: number) => string } = {}): Store {
  const at = (field: string, i: number) => options.where?.(field, i) ?? `entry ${i + 1}`;
  const invalid = (message: string) => new HarnessError('CNF_ERR_CONFIG_INVALID', `the saved state does not fit the reference server's store: ${message}`);
  if (snapshot === null || typeof snapshot !== 'object') throw invalid('it is not an object');
  for (const field of ['seed', 'idSequence', 'clockOffsetMs'] as const) {
    if (typeof snapshot[field] !== 'number' || !Number.isFinite(snapshot[field])) throw invalid(`${field} is not a number`);
  }
  if (!Number.isInteger(snapshot.seed) || !Number.isInteger(snapshot.idSequence) || snapshot.idSequence < 0) throw invalid('seed and idSequence must be integers');
  if (snapshot.data === null || typeof snapshot.data !== 'object' || Array.isArray(snapshot.data)) throw invalid('data is not an object');
  const store = createStore({ seed: snapshot.seed, ...(options.clock ? { clock: options.clock } : {}) });
  store.idSequence = snapshot.idSequence;
  store.clockOffsetMs = snapshot.clockOffsetMs;
  const fields = store as unknown as Record<string, unknown>;
  for (const [name, encoded] of Object.entries(snapshot.data)) {
    const target = SCALAR_FIELDS.has(name) ? undefined : fields[name];
    try {
      if (target instanceof Collection) {
        if (!Array.isArray(encoded)) throw new SnapshotError('a collection must be a list of records');
        encoded.forEach((item, i) => {
          const same = item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 1 ? item.$same : undefined;
          let record: unknown;
          if (same !== undefined) {
            if (!Array.isArray(same) || typeof same[0] !== 'string' || typeof same[1] !== 'string') throw new SnapshotError(`${at(name, i)}: malformed $same`);
            const owner = fields[same[0]];
            record = owner instanceof Collection ? owner.get(same[1]) : undefined;
            if (record === undefined) throw new SnapshotError(`${at(name, i)}: ${same[0]} has no record ${same[1]} (it must come earlier)`);
          } else {
            record = decode(item, `${name}[${i}]`);
          }
          const problem = entryProblem(store, name, record);
          if (problem !== undefined) throw new SnapshotError(`${at(name, i)}: ${problem}`);
          if (target.get((record as { id: string }).id) !== undefined) throw new SnapshotError(`${at(name, i)}: a second record with the id ${(record as { id: string }).id}`);
          target.insert(record as never);
        });
      } else if (target instanceof Map) {
        const decoded = decode(encoded, name);
        if (!(decoded instanceof Map)) throw new SnapshotError('a map must be encoded as {"$m": [...]}');
        [...decoded].forEach(([key, value], i) => {
          const problem = entryProblem(store, name, value, key);
          if (problem !== undefined) throw new SnapshotError(`${at(name, i)}: ${problem}`);
          target.set(key, value);
        });
      } else if (Array.isArray(target)) {
        const decoded = decode(encoded, name);
        if (!Array.isArray(decoded)) throw new SnapshotError('a list must be an array');
        decoded.forEach((item, i) => {
          const problem = entryProblem(store, name, item);
          if (problem !== undefined) throw new SnapshotError(`${at(name, i)}: ${problem}`);
        });
        target.push(...decoded);
      } else {
        throw new SnapshotError(`${at(name, 0)}: the store has no such collection, map or list`);
      }
    } catch (error) {
      throw invalid(`${name}: ${(error as Error).message}`);
    }
  }
  return store;
}

/** Names of this writer's temporary files next to `file`: `.<name>.<pid>.<hex>.tmp`. */
function tempPattern(file: string): RegExp {
  const base = path.basename(file).replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  return new RegExp(`^\\.${base}\\.\\d+\\.[0-9a-f]+\\.tmp$`);
}

/**
 * Writes lines to `file` atomically: a temporary file in the same directory, fsync, rename over
 * `file`, fsync of the directory. A crash at any point leaves `file` as it was or complete. The
 * lines may come from an async source that yields to the event loop between them (a snapshot of a
 * live store built in slices); they are written in blocks of about 256 KiB.
 * @throws the file system's error (ENOENT for a missing directory, EACCES, ENOSPC, ...); the temporary file is removed
 */
export async function writeLinesAtomically(file: string, lines: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const directory = path.dirname(path.resolve(file));
  const temp = path.join(directory, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      let block: string[] = [];
      let size = 0;
      for await (const line of lines) {
        block.push(line, '\n');
        size += line.length + 1;
        if (size >= 256 * 1024) {
          await handle.write(block.join(''));
          block = [];
          size = 0;
        }
      }
      if (block.length > 0) await handle.write(block.join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** fsyncs a directory, so that a rename or a new file in it survives a crash; best effort (not every platform can). */
export async function syncDirectory(directory: string): Promise<void> {
  try {
    const dir = await open(directory, constants.O_RDONLY);
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // The file itself is complete either way.
  }
}

/** The first line of a format 2 state file. */
export interface SnapshotHeader {
  format: typeof STATE_FORMAT;
  version: typeof STATE_FORMAT_VERSION;
  /** When it was written (ISO 8601, the wall clock). */
  saved_at: string;
  seed: number;
  idSequence: number;
  clockOffsetMs: number;
  /** The journal generation to replay on top of it (`<file>.journal.<generation>` and later ones). */
  generation: number;
}

/**
 * The lines of a format 2 state file for a snapshot: the header, one line per record, map entry
 * or list item (`{"f": field, "r": record}`, `{"f": field, "m": [key, value]}`, `{"f": field, "a": item}`),
 * and `{"end": count}`, so that a file cut short is told from a complete one (the end line may
 * also carry `idSequence` and `clockOffsetMs`, which then override the header's).
 */
export function* snapshotLines(snapshot: StoreSnapshot, generation: number): Generator<string> {
  const header: SnapshotHeader = { format: STATE_FORMAT, version: STATE_FORMAT_VERSION, saved_at: new Date().toISOString(), seed: snapshot.seed, idSequence: snapshot.idSequence, clockOffsetMs: snapshot.clockOffsetMs, generation };
  yield JSON.stringify(header);
  let count = 0;
  for (const [field, value] of Object.entries(snapshot.data)) {
    if (Array.isArray(value)) {
      for (const item of value) {
        count++;
        yield JSON.stringify({ f: field, a: item });
      }
    } else if (value !== null && typeof value === 'object' && Array.isArray(value.$m)) {
      for (const entry of value.$m) {
        count++;
        yield JSON.stringify({ f: field, m: entry });
      }
    }
  }
  yield JSON.stringify({ end: count });
}

/** Kinds of store field, for the lines of a snapshot. */
function fieldKind(value: unknown): 'collection' | 'map' | 'list' | undefined {
  if (value instanceof Collection) return 'collection';
  if (value instanceof Map) return 'map';
  if (Array.isArray(value)) return 'list';
  return undefined;
}

/**
 * The lines of a format 2 state file for a live store, built in slices of about `sliceMs` that
 * yield to the event loop in between, so that requests go on being answered while a large store is
 * written. The records are those of the moment each slice runs (a fuzzy snapshot): whatever
 * changes meanwhile is also in the journal generation `generation`, replayed on top of it.
 * @param generation the journal generation the snapshot is the base of
 */
export async function* liveSnapshotLines(store: Store, generation: number, sliceMs = 2): AsyncGenerator<string> {
  let sliceStart = performance.now();
  const maybeYield = async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  const header: SnapshotHeader = { format: STATE_FORMAT, version: STATE_FORMAT_VERSION, saved_at: new Date().toISOString(), seed: store.seed, idSequence: store.idSequence, clockOffsetMs: store.clockOffsetMs, generation };
  yield JSON.stringify(header);
  const lines: string[] = [];
  const owners = new Map<object, string>();
  let count = 0;
  for (const [name, value] of Object.entries(store)) {
    if (SCALAR_FIELDS.has(name)) continue;
    const kind = fieldKind(value);
    if (kind === undefined) throw new Error(`cannot snapshot the store: store field ${name} is neither a collection, a map nor a list`);
    const items: unknown[] = kind === 'collection' ? [...(value as Collection<BaseRecord>).all()] : kind === 'map' ? [...(value as Map<unknown, unknown>)] : [...(value as unknown[])];
    for (const item of items) {
      count++;
      if (kind === 'collection') {
        const record = item as BaseRecord;
        const owner = owners.get(record);
        if (owner !== undefined) {
          lines.push(JSON.stringify({ f: name, r: { $same: [owner, record.id] } }));
        } else {
          owners.set(record, name);
          lines.push(JSON.stringify({ f: name, r: encode(record, `${name}[${record.id}]`) }));
        }
      } else if (kind === 'map') {
        const [key, entry] = item as [unknown, unknown];
        lines.push(JSON.stringify({ f: name, m: [encode(key, `${name} key`), encode(entry, `${name}[${String(key)}]`)] }));
      } else {
        lines.push(JSON.stringify({ f: name, a: encode(item, `${name}[]`) }));
      }
      // Checked after every line: one slice never runs much past sliceMs.
      if (performance.now() - sliceStart >= sliceMs) {
        yield* lines.splice(0);
        await maybeYield();
      }
    }
  }
  yield* lines.splice(0);
  // The id sequence and clock as they are once every record is written: no record of the file has an id beyond it.
  yield JSON.stringify({ end: count, idSequence: store.idSequence, clockOffsetMs: store.clockOffsetMs });
}

/**
 * Writes a snapshot atomically in format 2 (the lines of {@link snapshotLines}).
 * @param generation the journal generation it is the base of (default 1)
 * @throws the file system's error (ENOENT for a missing directory, EACCES, ENOSPC, ...); the temporary file is removed
 */
export async function writeStateFile(file: string, snapshot: StoreSnapshot, generation = 1): Promise<void> {
  await writeLinesAtomically(file, snapshotLines(snapshot, generation));
}

/** A state file read back: its snapshot and the journal generation to replay on top of it (format 1 files: none, generation 0). */
export interface StateFileRead {
  snapshot: StoreSnapshot;
  generation: number;
  /** Format 2: where each entry of the snapshot's fields stands in the file (`line 42`), for messages. */
  where?: (field: string, index: number) => string;
}

/**
 * Reads a state file of format 2 (lines) or 1 (one JSON document).
 * @returns the snapshot and its generation, or undefined when the file does not exist
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when it cannot be read, is not JSON, is cut short, or is not a state file of a version this code reads
 */
export async function readStateFileWithGeneration(file: string): Promise<StateFileRead | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot read the state file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const invalid = (message: string, cause?: unknown) => new HarnessError('CNF_ERR_CONFIG_INVALID', message, cause === undefined ? undefined : { cause });
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let first: { format?: unknown; version?: unknown; store?: StoreSnapshot | null };
  try {
    first = JSON.parse(lines.length > 1 ? lines[0]! : text) as typeof first;
  } catch (error) {
    throw invalid(`the state file ${file} is not valid JSON (${(error as Error).message}); move it away or pass another --state file`, error);
  }
  if (first === null || typeof first !== 'object' || first.format !== STATE_FORMAT) {
    throw invalid(`${file} is not a reference server state file (line 1 has no "format": "${STATE_FORMAT}")`);
  }
  if (first.version === 1) {
    if (first.store === null || typeof first.store !== 'object') throw invalid(`the state file ${file} has no store`);
    return { snapshot: first.store, generation: 0 };
  }
  if (first.version !== STATE_FORMAT_VERSION) {
    throw invalid(`the state file ${file} has format version ${String(first.version)}; this reference server reads versions 1 and ${STATE_FORMAT_VERSION}`);
  }
  const header = { ...(first as unknown as SnapshotHeader) };
  for (const name of ['seed', 'idSequence', 'generation'] as const) {
    if (!Number.isSafeInteger(header[name])) throw invalid(`the state file ${file} has a header (line 1) whose ${name} is not an integer`);
  }
  if (!Number.isFinite(header.clockOffsetMs)) throw invalid(`the state file ${file} has a header (line 1) whose clockOffsetMs is not a number`);
  const data: Record<string, EncodedValue> = {};
  const lineNumbers: Record<string, number[]> = {};
  let count = 0;
  let ended = false;
  for (let i = 1; i < lines.length; i++) {
    let line: { f?: unknown; r?: EncodedValue; m?: EncodedValue; a?: EncodedValue; end?: unknown; idSequence?: unknown; clockOffsetMs?: unknown };
    try {
      line = JSON.parse(lines[i]!) as typeof line;
    } catch (error) {
      throw invalid(`the state file ${file} is not valid JSON at line ${i + 1} (${(error as Error).message}); move it away or pass another --state file`, error);
    }
    if (line === null || typeof line !== 'object' || Array.isArray(line)) throw invalid(`the state file ${file} has a line ${i + 1} that is not a JSON object; move it away or pass another --state file`);
    if (typeof line.end === 'number') {
      if (line.end !== count || i !== lines.length - 1) throw invalid(`the state file ${file} is inconsistent: its end line counts ${line.end} entries, ${count} precede it`);
      if (line.idSequence !== undefined && !Number.isSafeInteger(line.idSequence)) throw invalid(`the state file ${file} has an end line (line ${i + 1}) whose idSequence is not an integer`);
      if (line.clockOffsetMs !== undefined && !Number.isFinite(line.clockOffsetMs)) throw invalid(`the state file ${file} has an end line (line ${i + 1}) whose clockOffsetMs is not a number`);
      if (typeof line.idSequence === 'number') header.idSequence = line.idSequence;
      if (typeof line.clockOffsetMs === 'number') header.clockOffsetMs = line.clockOffsetMs;
      ended = true;
      break;
    }
    if (typeof line.f !== 'string') throw invalid(`the state file ${file} has a line ${i + 1} without a field name`);
    const parts = (line.r !== undefined ? 1 : 0) + (line.m !== undefined ? 1 : 0) + (line.a !== undefined ? 1 : 0);
    if (parts !== 1) throw invalid(`the state file ${file} has a line ${i + 1} that is neither a record ("r"), a map entry ("m") nor a list item ("a")`);
    if (line.m !== undefined && (!Array.isArray(line.m) || line.m.length !== 2)) throw invalid(`the state file ${file} has a line ${i + 1} whose map entry is not a [key, value] pair`);
    count++;
    (lineNumbers[line.f] ??= []).push(i + 1);
    if (line.m !== undefined) {
      const map = (data[line.f] ??= { $m: [] }) as { $m?: EncodedValue[] };
      if (!Array.isArray(map.$m)) throw invalid(`the state file ${file}: ${line.f} holds both map entries and list items`);
      map.$m.push(line.m);
    } else {
      const list = (data[line.f] ??= []) as EncodedValue[];
      if (!Array.isArray(list)) throw invalid(`the state file ${file}: ${line.f} holds both map entries and list items`);
      list.push(line.r !== undefined ? line.r : (line.a ?? null));
    }
  }
  if (!ended) throw invalid(`the state file ${file} is cut short (no end line); it was not written by a complete snapshot`);
  const where = (field: string, index: number) => `line ${lineNumbers[field]?.[index] ?? '?'} (${field})`;
  return { snapshot: { seed: header.seed, idSequence: header.idSequence, clockOffsetMs: header.clockOffsetMs, data }, generation: header.generation, where };
}

/**
 * Reads the snapshot of a state file (format 2 or 1), without the journal.
 * @returns the snapshot, or undefined when the file does not exist
 * @throws HarnessError CNF_ERR_CONFIG_INVALID (see {@link readStateFileWithGeneration})
 */
export async function readStateFile(file: string): Promise<StoreSnapshot | undefined> {
  return (await readStateFileWithGeneration(file))?.snapshot;
}

/**
 * Removes temporary files that an interrupted write (a killed process) left next to `file`.
 * Only one server may use a state file at a time, so none of them can belong to a live writer.
 * @returns the names removed
 */
export async function removeStrayTempFiles(file: string): Promise<string[]> {
  const directory = path.dirname(path.resolve(file));
  const pattern = tempPattern(file);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  const stray = names.filter((name) => pattern.test(name));
  await Promise.all(stray.map((name) => rm(path.join(directory, name), { force: true })));
  return stray;
}
