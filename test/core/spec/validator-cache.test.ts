// Response validators kept between processes: compiled once, kept as code, loaded with V8's code
// cache for it, and never a wrong verdict from a cache file that is missing, stale or garbage.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { compileCached } from '../../../core/spec/validator-cache.js';

const SCHEMA = { type: 'object', required: ['id', 'amount'], properties: { id: { type: 'string' }, amount: { type: 'integer', minimum: 0 } } };
const verdicts = (validate: (value: unknown) => boolean) => [validate({ id: 'a', amount: 1 }), validate({ id: 'a', amount: -1 }), validate({ amount: 1 }), validate('x')];
const WANT = [true, false, false, false];

/** An ajv factory that counts the instances it makes. */
function countingAjv(): { ajvOf: () => Ajv2020; made: () => number } {
  let made = 0;
  return {
    ajvOf: () => {
      made++;
      return new Ajv2020({ strict: false, code: { source: true } });
    },
    made: () => made,
  };
}

describe('compileCached', () => {
  test('compiles once, then loads the kept code and its V8 code cache, with the same verdicts', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validator-cache-'));
    const { ajvOf, made } = countingAjv();
    expect(verdicts(compileCached(ajvOf, SCHEMA, 'k', dir))).toEqual(WANT);
    expect(made()).toBe(1);
    expect(readdirSync(dir).filter((f) => f.endsWith('.cjs'))).toHaveLength(1);
    // Loaded from the kept code: no ajv made; the code cache is kept beside it.
    expect(verdicts(compileCached(ajvOf, SCHEMA, 'k', dir))).toEqual(WANT);
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8c'))).toHaveLength(1);
    expect(verdicts(compileCached(ajvOf, SCHEMA, 'k', dir))).toEqual(WANT);
    expect(made()).toBe(1);
  });

  test('a code cache that is not one costs at most a compilation of the code: the verdicts stay the same', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validator-cache-'));
    const { ajvOf } = countingAjv();
    compileCached(ajvOf, SCHEMA, 'k', dir);
    compileCached(ajvOf, SCHEMA, 'k', dir);
    const [cache] = readdirSync(dir).filter((f) => f.endsWith('.v8c'));
    writeFileSync(path.join(dir, cache!), 'not a code cache');
    expect(verdicts(compileCached(ajvOf, SCHEMA, 'k', dir))).toEqual(WANT);
    expect(verdicts(compileCached(ajvOf, SCHEMA, 'k', dir))).toEqual(WANT);
  });

  test('without a key the schema is compiled every time', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validator-cache-'));
    const { ajvOf, made } = countingAjv();
    expect(verdicts(compileCached(ajvOf, SCHEMA, undefined, dir))).toEqual(WANT);
    expect(verdicts(compileCached(ajvOf, SCHEMA, undefined, dir))).toEqual(WANT);
    expect(made()).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});
