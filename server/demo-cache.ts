/**
 * The seeded demo store kept between starts: drawing the demo dataset takes a third of a start
 * (about 170 ms of faker and inserts), restoring it from the last start's snapshot about half of
 * that. The dataset is a pure function of the seed and of the server's code, so an entry is named
 * by the seed and a hash of every source file under server/ and of the faker version: an edited
 * file or another faker simply misses and the start seeds (and writes a new entry). The snapshot
 * is {@link snapshotStore}'s, the format `--state` files use, restored through the collections'
 * `insert` like a state file.
 * @see docs/design.md (Performance: first response within 0.5 s of process start); docs/decisions.md (Benchmarks: "Start")
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { specCacheDir } from '../core/spec/load.js';
import type { DemoTokenName } from './auth.js';
import type { DemoData, DemoDataVariant } from './demo-data.js';
import { restoreStore, snapshotStore, type StoreSnapshot } from './persistence.js';
import type { Store } from './store.js';

/** Bump when what an entry holds changes shape. */
const DEMO_CACHE_FORMAT = 1;
const SERVER_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The demo state of a seed: its data ids and token strings. */
export interface DemoSeeding {
  demo: DemoData;
  tokens: Record<DemoTokenName, string>;
}

interface Entry {
  snapshot: StoreSnapshot;
  seeding: DemoSeeding;
}

let codeHash: string | undefined;

/** sha256 over every .ts file under server/ (path and content, in path order) and faker's version. */
function serverCodeHash(): string {
  if (codeHash) return codeHash;
  const hash = createHash('sha256').update(`${DEMO_CACHE_FORMAT}\0`);
  try {
    hash.update(String(createRequire(import.meta.url)('@faker-js/faker/package.json').version));
  } catch {
    hash.update('faker ?');
  }
  const files = (readdirSync(SERVER_DIR, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts')).sort();
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(path.join(SERVER_DIR, file)));
  codeHash = hash.digest('hex').slice(0, 32);
  return codeHash;
}

function entryFile(seed: number): string {
  return path.join(specCacheDir(), `demo-${seed}-${serverCodeHash()}.v8`);
}

/**
 * The demo store of `seed` as the last start with the same code left it (`store()` restores it;
 * undefined if that fails) and its seeding; undefined when there is none or it cannot be read,
 * which only costs a seeding.
 * @param clock the base clock of the new store
 */
export async function readDemoCache(seed: number, clock?: () => Date): Promise<{ store(): Store | undefined; seeding: DemoSeeding } | undefined> {
  let entry: Entry;
  try {
    entry = v8.deserialize(await readFile(entryFile(seed))) as Entry;
    if (!entry?.seeding?.tokens || !entry.snapshot) return undefined;
  } catch {
    return undefined;
  }
  return {
    seeding: entry.seeding,
    // Restored on demand: a start from a state file needs only the seeding.
    store: () => {
      try {
        return restoreStore(entry.snapshot, clock ? { clock } : {});
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Keeps a freshly seeded store for the next start. Call it before the store changes; failures
 * (a read-only or full disk) are ignored.
 */
export async function writeDemoCache(store: Store, seeding: DemoSeeding): Promise<void> {
  try {
    const file = entryFile(store.seed);
    const entry: Entry = { snapshot: snapshotStore(store), seeding };
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, v8.serialize(entry));
    await rename(temp, file);
  } catch {
    // The next start seeds again.
  }
}

/** Seedings this process keeps in memory, most recent last. */
const MAX_IN_PROCESS = 4;
const inProcess = new Map<string, Entry>();
const inProcessKey = (seed: number, variant: DemoDataVariant) => `${seed}\u0000${variant}`;

/**
 * A new store of the demo dataset of `seed` and `variant` that this process seeded before, and its
 * seeding; undefined when it seeded none. A run's two embedded references (the stateful group's
 * own beside the other suites') share a seed: the second restores the first's snapshot (about 10
 * ms) instead of drawing the dataset again (about 50 to 80 ms). Any seed, unlike the files of
 * {@link readDemoCache}, which keep the default seed only: a run's seed is random by default.
 * @param variant the demo dataset's variant (server/demo-data.ts)
 * @param clock the base clock of the new store
 * @returns undefined too when the snapshot cannot be restored (the caller seeds instead)
 */
export function recallDemo(seed: number, variant: DemoDataVariant, clock?: () => Date): { store: Store; seeding: DemoSeeding } | undefined {
  const entry = inProcess.get(inProcessKey(seed, variant));
  if (!entry) return undefined;
  try {
    return { store: restoreStore(entry.snapshot, clock ? { clock } : {}), seeding: entry.seeding };
  } catch {
    return undefined;
  }
}

/**
 * Keeps a freshly seeded store in this process's memory for {@link recallDemo} (the last
 * {@link MAX_IN_PROCESS} seedings). Call it before the store changes.
 */
export function rememberDemo(store: Store, seeding: DemoSeeding, variant: DemoDataVariant): void {
  const key = inProcessKey(store.seed, variant);
  inProcess.delete(key);
  inProcess.set(key, { snapshot: snapshotStore(store), seeding });
  if (inProcess.size > MAX_IN_PROCESS) inProcess.delete(inProcess.keys().next().value!);
}
