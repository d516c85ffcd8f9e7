/**
 * Response validators kept between processes. Compiling a document's response schemas is the
 * largest fixed cost of a vitest worker of a run (about a second for the bundled document), and
 * every run starts new workers; ajv can write a compiled validator out as code ("standalone
 * code"), so each validator is compiled once per document and ajv version, kept as a CommonJS
 * module in the cache folder of the documents (core/spec/load.ts `specCacheDir`), and loaded from
 * there by every later process, with V8's code cache for that code beside it. Entries are named by a
 * hash of what made them, so they never go stale.
 * @see docs/performance.md (Where a run's time goes); ajv's documentation, "Standalone validation code"
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import type { Ajv, ValidateFunction } from 'ajv';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';

const requireHere = createRequire(import.meta.url);
// ajv's standalone entry is CommonJS with `exports.default`.
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ?? standaloneCodeModule) as (ajv: Ajv, validate: ValidateFunction) => string;
const AJV_VERSION: string = (() => {
  try {
    return String(requireHere('ajv/package.json').version);
  } catch {
    return 'unknown';
  }
})();
/** Bump when the generated code or its loading changes. */
const FORMAT = 1;

/**
 * The validator of `schema` in the ajv instance `ajvOf` makes: loaded from `dir` when a process
 * compiled it before under `key`, else compiled and kept there for the next process. Without a key
 * (a document whose content is not known by its text alone) it is compiled every time. A cache
 * entry that cannot be read, loaded or written costs only a compilation.
 * @param ajvOf the ajv instance holding the document, asked for only when a compilation is needed
 *   (making one walks the whole document: about 60 to 170 ms for the bundled one)
 * @param key what identifies the schema: the document's content hash, the ajv options and the schema's `$ref`
 * @param dir the cache folder
 * @throws Error from ajv when the schema cannot be compiled
 */
export function compileCached(ajvOf: () => Ajv, schema: object, key: string | undefined, dir: string): ValidateFunction {
  if (key === undefined) return ajvOf().compile(schema);
  const digest = createHash('sha256').update(`${FORMAT}\0${AJV_VERSION}\0${key}`).digest('hex').slice(0, 32);
  const file = path.join(dir, `validator-${digest}.cjs`);
  const loaded = load(file);
  if (loaded) return loaded;
  const ajv = ajvOf();
  const validate = ajv.compile(schema);
  let code: string | undefined;
  try {
    code = standaloneCode(ajv, validate);
  } catch {
    // A schema ajv cannot write out: the next process compiles it again.
  }
  if (code !== undefined) keep(file, code);
  return validate;
}

/**
 * A kept validator, or undefined when there is none or it cannot be loaded. Its code is compiled
 * with V8's code cache for it when one was kept (`<file>.<tag>.v8c`, the tag naming the V8 version
 * and flags that made it), which skips parsing and compiling about 3 MB of generated code in every
 * worker (about 55 ms against 17 ms for the 60 validators of a run, measured); else the cache is
 * made and kept for the next process.
 */
function load(file: string): ValidateFunction | undefined {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const cacheFile = `${file}.${cachedDataVersionTag()}.v8c`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // Not kept yet: made below.
  }
  try {
    const module = { exports: {} as Record<string, unknown> };
    const script = new Script(`(function (module, exports, require) {${code}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
    if (!cachedData || script.cachedDataRejected) keep(cacheFile, script.createCachedData());
    // The generated module requires ajv's runtime helpers and ajv-formats' formats, from this project.
    (script.runInThisContext() as (module: unknown, exports: unknown, require: NodeJS.Require) => void)(module, module.exports, requireHere);
    const validate = (module.exports['default'] ?? module.exports) as unknown;
    return typeof validate === 'function' ? (validate as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `data` to `file` whole (a temporary file renamed, its folder made), or not at all. */
function keep(file: string, data: string | Buffer): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch {
    // A read-only or full disk: the next process makes it again.
  }
}
