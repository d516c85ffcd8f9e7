/**
 * `--state FILE` made durable: every change to the store is appended to a journal
 * (`FILE.journal.<generation>`, one JSON line per commit) and fsynced before the answer of the
 * request that made it is sent. Commits are grouped: the changes of every request answered while
 * one fsync runs share the next one (group commit), and appending and fsync run on libuv's thread
 * pool, never on the event loop. Only what changed is written: the records a collection inserted,
 * updated or deleted (store.ts tells), records an event names, the new entries of the event and
 * delivery logs, and the tokens, codes and refresh tokens whose state differs from what was
 * written last. When the journal passes a size, a new generation is started and a snapshot of the
 * store (FILE, format 2 of persistence.ts) is written in the background, in slices that yield to the
 * event loop; once it is complete, the journals before its generation are removed.
 *
 * At start, FILE is read, then the journals of its generation and later ones are replayed; a last
 * line cut short by a crash (never acknowledged) is dropped. A journal that does not end with a
 * clean close means the server died: ids then go on {@link ID_GAP_AFTER_CRASH} past the last
 * one written, so that no id handed out before the crash (to a webhook receiver, say) is handed
 * out again. FILE.lock holds the process id of the server using FILE: a second server refuses it.
 * @see docs/reference-server.md (Durability (--state)); POSIX fsync(2), rename(2)
 */
import { constants } from 'node:fs';
import { open, readdir, readFile, rm, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { onStoreChanged } from './events.js';
import {
  decode,
  encode,
  liveSnapshotLines,
  readStateFileWithGeneration,
  restoreStore,
  syncDirectory,
  writeLinesAtomically,
  type EncodedValue,
} from './persistence.js';
import { entryProblem } from './state-shapes.js';
import type { FaultSet } from './faults.js';
import { Collection } from './collection.js';
import type { BaseRecord, TokenRecord } from './records.js';
import { BoundedLog, clearStore, trackRecordChanges, type Store } from './store.js';

/** Journal bytes after which a new generation and a background snapshot start (16 MiB). */
export const DEFAULT_COMPACT_AFTER_BYTES = 16 * 1024 * 1024;
/** How far past the last written id the ids go on after a crash. */
export const ID_GAP_AFTER_CRASH = 1_000_000;

/** The store fields that are not collections, and how they are journaled. */
const LOG_FIELDS = ['events', 'deliveries'] as const;
const MAP_FIELDS = ['authorizationCodes', 'refreshTokens'] as const;
const KNOWN_FIELDS = new Set<string>(['seed', 'clock', 'idSequence', 'clockOffsetMs', 'tokens', ...LOG_FIELDS, ...MAP_FIELDS]);

/** One change of a commit. */
type Change =
  | ['reset']
  | ['put', string, EncodedValue]
  | ['del', string, string]
  | ['add', string, EncodedValue]
  | ['tok', EncodedValue]
  | ['map', string, EncodedValue, EncodedValue]
  | ['unmap', string, EncodedValue];

/** One line of a journal: a commit (id sequence, clock offset and changes), or the mark of a clean close. */
type JournalLine = { i: number; o: number; x: Change[] } | { closed: true };

const CHANGE_ARITY: Readonly<Record<string, number>> = { reset: 1, put: 3, del: 3, add: 3, tok: 2, map: 4, unmap: 3 };

/**
 * What is wrong with the shape of a parsed journal line, or undefined when it is a commit
 * (`{i, o, x: [change...]}`, each change an array whose first item names a kind and whose names are
 * strings) or the mark of a clean close. The values inside a change are checked when they are applied.
 */
function journalLineProblem(line: unknown): string | undefined {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return 'not a JSON object';
  const fields = line as Record<string, unknown>;
  if (fields.closed === true) return undefined;
  if (!Number.isSafeInteger(fields.i)) return 'no integer id sequence "i"';
  if (typeof fields.o !== 'number' || !Number.isFinite(fields.o)) return 'no clock offset "o"';
  if (!Array.isArray(fields.x)) return 'no list of changes "x"';
  for (const [n, change] of fields.x.entries()) {
    if (!Array.isArray(change) || typeof change[0] !== 'string' || CHANGE_ARITY[change[0]] !== change.length) return `change ${n + 1} is not a known change`;
    if (['put', 'del', 'add', 'map', 'unmap'].includes(change[0]) && typeof change[1] !== 'string') return `change ${n + 1} names no store field`;
    if (change[0] === 'del' && typeof change[2] !== 'string') return `change ${n + 1} deletes no record id`;
  }
  return undefined;
}

/** The journal of one generation. */
export function journalPath(file: string, generation: number): string {
  return `${file}.journal.${generation}`;
}

/** The lock file of a state file. */
export function lockPath(file: string): string {
  return `${file}.lock`;
}

/** The journal generations present next to `file`, ascending. */
async function journalGenerations(file: string): Promise<number[]> {
  const directory = path.dirname(path.resolve(file));
  const prefix = `${path.basename(file)}.journal.`;
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^\d{1,9}$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

const heldLocks = new Set<string>();

/** Whether a process with this id is alive (EPERM: alive, someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of a state file: `FILE.lock` holding this process's id. A lock left by a process
 * that is gone (killed) is taken over.
 * @returns a function that releases the lock
 * @throws HarnessError CNF_ERR_STATE_IN_USE when another live server (another process, or another server of this process) uses FILE;
 *   CNF_ERR_CONFIG_INVALID when the lock cannot be written (a missing directory)
 */
export async function lockStateFile(file: string): Promise<() => Promise<void>> {
  const resolved = path.resolve(file);
  const lock = lockPath(resolved);
  const inUse = (by: string) =>
    new HarnessError('CNF_ERR_STATE_IN_USE', `the state file ${file} is in use by ${by} (lock ${lock}); stop that server or pass another --state file`);
  if (heldLocks.has(resolved)) throw inUse('another reference server of this process');
  const mine = `${process.pid}\n`;
  try {
    await writeFile(lock, mine, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot write the state file ${file}: ${(error as Error).message}`, { cause: error });
    }
    const holder = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) throw inUse(`process ${holder}`);
    // Left by a process that is gone: take it over.
    await writeFile(lock, mine, { mode: 0o600 });
  }
  heldLocks.add(resolved);
  return async () => {
    heldLocks.delete(resolved);
    const holder = await readFile(lock, 'utf8').catch(() => '');
    if (holder === mine) await rm(lock, { force: true });
  };
}

/** A store read back from a state file and its journals. */
export interface RecoveredState {
  store: Store;
  /** The generation to append to. */
  generation: number;
  /** Bytes of that generation's journal. */
  journalBytes: number;
  /** Whether the last journal did not end with a clean close (the ids then skip {@link ID_GAP_AFTER_CRASH}). */
  crashed: boolean;
  /** Commits replayed from the journals. */
  replayed: number;
}

/** Lazily built lookups of one replay: log entry ids and tokens by digest. */
interface ReplayIndex {
  logIds: Map<string, Set<string>>;
  tokens?: Map<string, TokenRecord>;
}

function fieldOf(store: Store, name: string): unknown {
  return Object.hasOwn(store, name) ? (store as unknown as Record<string, unknown>)[name] : undefined;
}

/** `value`, when it fits the store field `field` ({@link entryProblem}). @throws Error saying what does not fit */
function mustFit<T>(store: Store, field: string, value: T, key?: unknown): T {
  const problem = entryProblem(store, field, value, key);
  if (problem !== undefined) throw new Error(`${field}: ${problem}`);
  return value;
}

/** Applies one commit to a store. @throws SyntaxError-like Error for a change that does not fit the store */
function applyCommit(store: Store, commit: { i: number; o: number; x: Change[] }, index: ReplayIndex): void {
  for (const change of commit.x) {
    switch (change[0]) {
      case 'reset':
        clearStore(store);
        index.logIds.clear();
        index.tokens = undefined;
        break;
      case 'put': {
        const collection = fieldOf(store, change[1]);
        if (!(collection instanceof Collection)) throw new Error(`no collection ${change[1]}`);
        const encoded = change[2];
        const same = encoded !== null && typeof encoded === 'object' && !Array.isArray(encoded) && Object.keys(encoded).length === 1 ? encoded.$same : undefined;
        if (Array.isArray(same)) {
          const owner = fieldOf(store, String(same[0]));
          const record = owner instanceof Collection ? owner.get(String(same[1])) : undefined;
          if (!record) throw new Error(`${change[1]}: ${String(same[0])} has no record ${String(same[1])}`);
          // One object in both collections, even where a snapshot taken meanwhile wrote it as two.
          const current = collection.get(record.id);
          if (current !== record) {
            if (current) collection.delete(record.id);
            collection.insert(record);
          }
          break;
        }
        const record = decode(encoded, change[1]) as BaseRecord;
        mustFit(store, change[1], record);
        const existing = collection.get(record.id);
        if (existing) collection.update(existing, record);
        else collection.insert(record);
        break;
      }
      case 'del': {
        const collection = fieldOf(store, change[1]);
        if (!(collection instanceof Collection)) throw new Error(`no collection ${change[1]}`);
        collection.delete(change[2]);
        break;
      }
      case 'add': {
        const log = fieldOf(store, change[1]);
        if (!(log instanceof BoundedLog)) throw new Error(`no log ${change[1]}`);
        let ids = index.logIds.get(change[1]);
        if (!ids) index.logIds.set(change[1], (ids = new Set(log.map((entry: { id: string }) => entry.id))));
        const entry = decode(change[2], change[1]) as { id: string };
        mustFit(store, change[1], entry);
        if (ids.has(entry.id)) break;
        ids.add(entry.id);
        log.push(entry);
        break;
      }
      case 'tok': {
        const token = decode(change[1], 'tokens') as TokenRecord;
        mustFit(store, 'tokens', token);
        index.tokens ??= new Map(store.tokens.map((t) => [t.digest.toString('hex'), t]));
        const key = token.digest.toString('hex');
        const existing = index.tokens.get(key);
        if (existing) Object.assign(existing, token);
        else {
          store.tokens.push(token);
          index.tokens.set(key, token);
        }
        break;
      }
      case 'map':
      case 'unmap': {
        const map = fieldOf(store, change[1]);
        if (!(map instanceof Map)) throw new Error(`no map ${change[1]}`);
        const key = decode(change[2], `${change[1]} key`);
        if (typeof key !== 'string') throw new Error(`${change[1]}: a map entry has no string key`);
        if (change[0] === 'map') map.set(key, mustFit(store, change[1], decode(change[3], change[1]), key));
        else map.delete(key);
        break;
      }
      default:
        throw new Error(`unknown change ${String((change as unknown[])[0])}`);
    }
  }
  store.idSequence = Math.max(store.idSequence, commit.i);
  store.clockOffsetMs = commit.o;
}

/**
 * Reads a state file and replays its journals. A journal's last line cut short (a crash while it
 * was written: never acknowledged) is dropped and cut off the file, so that appends go on cleanly.
 * Journals older than the snapshot's generation are removed.
 * @returns the store, or undefined when FILE does not exist
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for a corrupt file or journal (a bad line that is not the last)
 */
export async function recoverState(file: string, options: { clock?: () => Date } = {}): Promise<RecoveredState | undefined> {
  const read = await readStateFileWithGeneration(file);
  const generations = await journalGenerations(file);
  if (!read) {
    // Journals without a snapshot: a first start that died before its snapshot was complete; nothing was acknowledged.
    await Promise.all(generations.map((g) => rm(journalPath(file, g), { force: true })));
    return undefined;
  }
  const store = restoreStore(read.snapshot, { ...(options.clock ? { clock: options.clock } : {}), ...(read.where ? { where: read.where } : {}) });
  const base = Math.max(read.generation, 1);
  await Promise.all(generations.filter((g) => g < base).map((g) => rm(journalPath(file, g), { force: true })));
  const replay = generations.filter((g) => g >= base);
  const index: ReplayIndex = { logIds: new Map() };
  let replayed = 0;
  let closed = read.generation === 0 ? false : replay.length === 0;
  let journalBytes = 0;
  for (const generation of replay) {
    const journal = journalPath(file, generation);
    const text = await readFile(journal, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    const lines = text.slice(0, complete).split('\n');
    lines.pop();
    let offset = 0;
    for (let i = 0; i < lines.length; i++) {
      let line: JournalLine;
      try {
        line = JSON.parse(lines[i]!) as JournalLine;
      } catch (error) {
        throw new HarnessError('CNF_ERR_CONFIG_INVALID', `the state journal ${journal} is corrupt at line ${i + 1} (${(error as Error).message}); move FILE and its journals away or pass another --state file`, { cause: error });
      }
      const shape = journalLineProblem(line);
      if (shape !== undefined) {
        throw new HarnessError('CNF_ERR_CONFIG_INVALID', `the state journal ${journal} is corrupt at line ${i + 1} (${shape}); move FILE and its journals away or pass another --state file`);
      }
      offset += Buffer.byteLength(lines[i]!) + 1;
      if ('closed' in line) {
        closed = true;
        continue;
      }
      try {
        applyCommit(store, line, index);
      } catch (error) {
        throw new HarnessError('CNF_ERR_CONFIG_INVALID', `the state journal ${journal} does not fit the store at line ${i + 1}: ${(error as Error).message}`, { cause: error });
      }
      closed = false;
      replayed++;
    }
    if (complete < text.length) await truncate(journal, Buffer.byteLength(text.slice(0, complete)));
    journalBytes = offset;
  }
  const crashed = !closed;
  if (crashed) store.idSequence += ID_GAP_AFTER_CRASH;
  return { store, generation: replay.at(-1) ?? base, journalBytes, crashed, replayed };
}

/** Keeps a store durable in its state file; made by {@link startStatePersister}. */
export interface StatePersister {
  /** The state file. */
  readonly file: string;
  /** Resolves once every change made so far is fsynced in the journal (group commit with the other callers of this tick). @throws the file system's error */
  durable(): Promise<void>;
  /** Same as {@link durable}: for callers that only want the changes so far written. */
  flush(): Promise<void>;
  /** Starts a new generation and writes a snapshot in the background; resolves when it is complete. */
  compact(): Promise<void>;
  /** Counters: commits, fsyncs (fewer than commits when grouped), snapshots written, the current generation and its journal bytes. */
  stats(): { commits: number; syncs: number; snapshots: number; generation: number; journalBytes: number };
  /** Stops listening, commits what is left, marks the journal closed cleanly, and releases nothing else (the lock is the caller's). */
  close(): Promise<void>;
}

/** Options of {@link startStatePersister}. */
export interface PersisterOptions {
  /** The generation to append to (from {@link recoverState}; 1 for a new file). */
  generation: number;
  /** Bytes already in that generation's journal. */
  journalBytes?: number;
  /** Write a snapshot of the store first (a new state file). */
  fresh?: boolean;
  /** Journal bytes after which a background snapshot starts (default {@link DEFAULT_COMPACT_AFTER_BYTES}). */
  compactAfterBytes?: number;
  /** Called with a failed background write's error (default: a process warning). */
  onError?: (error: Error) => void;
  /** The server's faults: `write_not_persisted` leaves the changes of orders out of the journal. */
  faults?: FaultSet;
}

/**
 * Starts keeping `store` durable in `file`: writes the first snapshot when `fresh`, then journals
 * every change (see the module's comment).
 * @throws the file system's error of the first snapshot or of opening the journal; Error for a store field this code does not know how to journal (a bug: a new kind of store field)
 */
export async function startStatePersister(store: Store, file: string, options: PersisterOptions): Promise<StatePersister> {
  for (const [name, value] of Object.entries(store)) {
    if (!(value instanceof Collection) && !KNOWN_FIELDS.has(name)) throw new Error(`the state journal does not know how to keep the store field ${name}`);
  }
  const onError = options.onError ?? ((error: Error) => process.emitWarning(`cannot write the state journal of ${file}: ${error.message}`));
  const compactAfterBytes = Math.max(1024, options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES);
  let generation = Math.max(1, options.generation);
  if (options.fresh) await writeLinesAtomically(file, liveSnapshotLines(store, generation));
  let journal: FileHandle = await open(journalPath(file, generation), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
  await syncDirectory(path.dirname(path.resolve(file)));
  let journalBytes = options.journalBytes ?? 0;
  const counters = { commits: 0, syncs: 0, snapshots: 0 };

  // What changed since the last commit.
  const names = new Map<Collection<BaseRecord>, string>();
  for (const [name, value] of Object.entries(store)) if (value instanceof Collection) names.set(value as Collection<BaseRecord>, name);
  const dirty = new Map<Collection<BaseRecord>, Set<string>>();
  let resetPending = false;
  const logMarks = new Map<string, number>();
  let tokenMarks = new WeakMap<TokenRecord, string>();
  const mapMarks = new Map<string, Map<unknown, string>>();
  const tokenMark = (token: TokenRecord) => `${token.revoked === true}:${token.expiresAtMs ?? ''}`;
  const entryMark = (value: unknown) => JSON.stringify(value);
  const markAllWritten = () => {
    for (const field of LOG_FIELDS) logMarks.set(field, store[field].appended);
    tokenMarks = new WeakMap();
    for (const token of store.tokens) tokenMarks.set(token, tokenMark(token));
    for (const field of MAP_FIELDS) mapMarks.set(field, new Map([...store[field]].map(([key, value]) => [key, entryMark(value)])));
  };
  markAllWritten();
  let lastIds = store.idSequence;
  let lastOffset = store.clockOffsetMs;

  const touch = (collection: Collection<BaseRecord>, id: string) => {
    let ids = dirty.get(collection);
    if (!ids) dirty.set(collection, (ids = new Set()));
    ids.add(id);
  };
  trackRecordChanges(
    store,
    (collection, id) => {
      touch(collection, id);
      kick();
    },
    () => {
      // A reset: everything before it is moot; the reseeding that follows is journaled record by record.
      resetPending = true;
      dirty.clear();
      for (const field of LOG_FIELDS) logMarks.set(field, store[field].appended);
      tokenMarks = new WeakMap();
      for (const field of MAP_FIELDS) mapMarks.set(field, new Map());
      kick();
    },
  );
  const unsubscribeChanges = onStoreChanged(store, () => kick());

  /** The changes since the last commit as one journal line, or undefined when there are none. */
  const capture = (): string | undefined => {
    const changes: Change[] = [];
    if (resetPending) changes.push(['reset']);
    resetPending = false;
    const owners = new Map<object, string>();
    for (const [collection, ids] of dirty) {
      const name = names.get(collection)!;
      if (name === 'orders' && options.faults?.has('write_not_persisted')) continue;
      for (const id of ids) {
        const record = collection.get(id);
        if (!record) {
          changes.push(['del', name, id]);
          continue;
        }
        const owner = owners.get(record);
        if (owner !== undefined) {
          changes.push(['put', name, { $same: [owner, id] }]);
        } else {
          owners.set(record, name);
          changes.push(['put', name, encode(record, `${name}[${id}]`)]);
        }
      }
    }
    dirty.clear();
    for (const field of LOG_FIELDS) {
      const log = store[field];
      const fresh = Math.min(log.appended - logMarks.get(field)!, log.length);
      for (let i = log.length - fresh; i < log.length; i++) changes.push(['add', field, encode(log[i], `${field}[]`)]);
      logMarks.set(field, log.appended);
    }
    for (const token of store.tokens) {
      const mark = tokenMark(token);
      if (tokenMarks.get(token) === mark) continue;
      tokenMarks.set(token, mark);
      changes.push(['tok', encode(token, 'tokens[]')]);
    }
    for (const field of MAP_FIELDS) {
      const map = store[field] as Map<unknown, unknown>;
      const marks = mapMarks.get(field)!;
      for (const [key, value] of map) {
        const mark = entryMark(value);
        if (marks.get(key) === mark) continue;
        marks.set(key, mark);
        changes.push(['map', field, encode(key, `${field} key`), encode(value, `${field}[]`)]);
      }
      if (marks.size > map.size) {
        for (const key of [...marks.keys()]) {
          if (map.has(key)) continue;
          marks.delete(key);
          changes.push(['unmap', field, encode(key, `${field} key`)]);
        }
      }
    }
    if (changes.length === 0 && store.idSequence === lastIds && store.clockOffsetMs === lastOffset) return undefined;
    lastIds = store.idSequence;
    lastOffset = store.clockOffsetMs;
    return JSON.stringify({ i: store.idSequence, o: store.clockOffsetMs, x: changes } satisfies JournalLine);
  };

  // The writer: one append and fsync at a time; callers that arrive meanwhile share the next one.
  let waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  let writing = false;
  let scheduled = false;
  // Changes arrived (a request, a delivery, an in-process control call) that no commit has captured yet.
  let wanted = false;
  let closed = false;
  let journalClosed = false;
  let rotation: { resolve: () => void; reject: (error: Error) => void } | undefined;
  let compaction: Promise<void> | undefined;

  const rotate = async () => {
    const next = generation + 1;
    const handle = await open(journalPath(file, next), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
    await syncDirectory(path.dirname(path.resolve(file)));
    const old = journal;
    journal = handle;
    generation = next;
    journalBytes = 0;
    await old.close();
  };

  const writeLoop = async () => {
    scheduled = false;
    if (writing || journalClosed) return;
    writing = true;
    try {
      for (;;) {
        if (rotation) {
          const done = rotation;
          rotation = undefined;
          try {
            await rotate();
            done.resolve();
          } catch (error) {
            done.reject(error as Error);
          }
        }
        const batch = waiting;
        waiting = [];
        wanted = false;
        let line: string | undefined;
        try {
          line = capture();
          if (line !== undefined) {
            const bytes = Buffer.from(`${line}\n`);
            await journal.write(bytes);
            await journal.datasync();
            journalBytes += bytes.length;
            counters.commits++;
            counters.syncs++;
          }
          for (const waiter of batch) waiter.resolve();
        } catch (error) {
          for (const waiter of batch) waiter.reject(error as Error);
          if (batch.length === 0) onError(error as Error);
        }
        if (journalBytes > compactAfterBytes && !compaction && !closed) void compact().catch(onError);
        if (waiting.length === 0 && !rotation && !wanted) break;
      }
    } finally {
      writing = false;
    }
  };

  function kick(): void {
    wanted = true;
    if (scheduled || writing || closed) return;
    scheduled = true;
    // After the other requests of this turn of the event loop: their changes share the commit.
    setImmediate(() => void writeLoop());
  }

  const durable = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (closed) {
        reject(new Error(`the state journal of ${file} is closed`));
        return;
      }
      waiting.push({ resolve, reject });
      if (!writing && !scheduled) {
        scheduled = true;
        setImmediate(() => void writeLoop());
      }
    });

  function compact(): Promise<void> {
    if (compaction) return compaction;
    compaction = (async () => {
      const rotated = new Promise<void>((resolve, reject) => {
        rotation = { resolve, reject };
      });
      if (!writing && !scheduled) {
        scheduled = true;
        setImmediate(() => void writeLoop());
      }
      await rotated;
      const base = generation;
      await writeLinesAtomically(file, liveSnapshotLines(store, base));
      counters.snapshots++;
      for (const old of await journalGenerations(file)) if (old < base) await rm(journalPath(file, old), { force: true });
    })().finally(() => {
      compaction = undefined;
    });
    return compaction;
  }

  return {
    file,
    durable,
    flush: durable,
    compact,
    stats: () => ({ ...counters, generation, journalBytes }),
    async close() {
      if (closed) return;
      unsubscribeChanges();
      if (compaction) await compaction.catch(() => undefined);
      await durable();
      closed = true;
      trackRecordChanges(store, undefined);
      // A commit still being written goes before the mark of the clean close.
      while (writing) await new Promise((resolve) => setImmediate(resolve));
      const last = capture();
      await journal.write(`${last === undefined ? '' : `${last}\n`}${JSON.stringify({ closed: true } satisfies JournalLine)}\n`);
      await journal.datasync();
      journalClosed = true;
      await journal.close();
    },
  };
}
