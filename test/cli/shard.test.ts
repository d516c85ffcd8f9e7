// Sharded runs: the merged report of N shards holds exactly the cells, verdicts and counts of the
// unsharded run of the same seed (N = 1, 2 and 4), the cut is the same every time, and a set of
// reports that is not every shard of one run, once each, is a clear error (exit 2).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { mergeShardReports } from '../../cli/merge.js';
import { runConformance, type RunOptions } from '../../cli/run.js';
import { CHECKS } from '../../checks/index.js';
import { loadSpec } from '../../core/spec/load.js';
import { assignShards, parseShard, shardUnits, STATEFUL_UNIT } from '../../engine/shard.js';
import { SUITES } from '../../engine/suites.js';
import type { JsonReport } from '../../reporters/json.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });
// Reads and writes of a few resources, with the stateful scenarios and families that touch them:
// every suite and the stateful group have work, and a run stays short. The products and
// subscriptions lists are left out: walking their pages (up to 500 KB each) is most of a full
// run's bytes, and the cut and the merge are what this file is about.
const OPTIONS: RunOptions = {
  seed: 20261122,
  runs: 3,
  operations: ['products:get', 'subscriptions:get', 'orders:get', 'orders:update', 'customers:get', 'refunds:list', 'files:create'],
  reporters: ['json'],
  out: sink(),
};

/** A cell as the comparison sees it: everything but its duration and failures' wording of counts. */
const cellKey = (c: JsonReport['cells'][number]) =>
  JSON.stringify([c.operationId, c.checkId, c.status, c.cases, c.skipReason ?? null, c.skipKind ?? null, c.observed ?? null, c.transitions ?? null, c.failures.map((f) => [f.kind, f.caseId])]);

async function runTo(dir: string, options: RunOptions): Promise<JsonReport> {
  await runConformance({ ...OPTIONS, ...options, outputDir: dir });
  return JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as JsonReport;
}

describe('conformance run --shard and conformance merge', () => {
  test('the merged shards equal the whole run, for 1, 2 and 4 shards', { timeout: 300_000 }, async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'shards-'));
    const whole = await runTo(path.join(base, 'whole'), {});
    expect(whole.shard).toBeNull();
    expect(whole.summary.passed).toBeGreaterThan(20);
    for (const count of [1, 2, 4]) {
      const files: string[] = [];
      const units: string[] = [];
      for (let index = count; index >= 1; index--) {
        const dir = path.join(base, `${count}-${index}`);
        const shard = await runTo(dir, { shard: { index, count } });
        expect(shard.shard).toMatchObject({ index, count, run: { seed: OPTIONS.seed } });
        units.push(...shard.shard!.units);
        files.push(path.join(dir, 'report.json'));
      }
      // Every unit on exactly one shard, the stateful group among them.
      expect(new Set(units).size).toBe(units.length);
      expect(units).toContain(STATEFUL_UNIT);
      const outcome = await mergeShardReports({ reports: files, reporters: ['json'], outputDir: path.join(base, `merged-${count}`), out: sink() });
      const merged = JSON.parse(readFileSync(path.join(base, `merged-${count}`, 'report.json'), 'utf8')) as JsonReport;
      expect(outcome.exitCode).toBe(0);
      expect(merged.merged).toMatchObject({ shards: count });
      expect(merged.cells.map(cellKey).sort()).toEqual(whole.cells.map(cellKey).sort());
      expect(merged.summary).toEqual(whole.summary);
      expect(merged.coverage).toEqual(whole.coverage);
      expect(merged.transitions).toEqual(whole.transitions);
      expect(merged.conformance).toEqual(whole.conformance);
      expect(merged.errors).toEqual([]);
    }
  });

  test('the cut is the same for the same input, balances the estimated costs and keeps the stateful group whole', async () => {
    const spec = await loadSpec();
    const input = { spec, suites: [...SUITES], checks: CHECKS, operations: spec.operations, runs: 50 };
    const units = shardUnits(input);
    expect(units.filter((u) => u.id === STATEFUL_UNIT)).toHaveLength(1);
    expect(shardUnits(input)).toEqual(units);
    const cost = new Map(units.map((u) => [u.id, u.cost]));
    for (const count of [2, 3, 4]) {
      const cut = assignShards(units, count);
      expect(cut.flat().sort()).toEqual(units.map((u) => u.id).sort());
      expect(assignShards(units, count)).toEqual(cut);
      const loads = cut.map((ids) => ids.reduce((sum, id) => sum + cost.get(id)!, 0));
      const mean = loads.reduce((a, b) => a + b, 0) / count;
      const largest = Math.max(...units.map((u) => u.cost));
      // Greedy on the costliest unit first: no shard exceeds the mean by more than the largest unit.
      expect(Math.max(...loads)).toBeLessThanOrEqual(Math.max(mean * 1.3, largest));
    }
  });

  test('--shard takes K/N with 1 <= K <= N', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '2', 'a/b', '1/0', '1/65']) expect(() => parseShard(bad)).toThrow(/--shard must be K\/N/);
  });
});

describe('conformance merge: reports that are not every shard of one run', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'merge-errors-'));
  const report = (index: number, count: number, seed = 1, runs = 50): string => {
    const file = path.join(dir, `r-${index}-${count}-${seed}-${runs}-${Math.random().toString(36).slice(2)}.json`);
    const shard = { index, count, run: { seed, document: 'd'.repeat(64), options: { target: 'embedded', runs, failOn: 'should', shards: count } }, units: [] };
    writeFileSync(file, JSON.stringify({ target: 'http://127.0.0.1:1', specVersion: '2026-10', seed, startedAt: '2026-11-27T00:00:00.000Z', durationMs: 1, shard, cells: [], errors: [] }));
    return file;
  };

  async function merge(...files: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return promisify(execFile)(process.execPath, ['bin/conformance.js', 'merge', ...files], { cwd: ROOT }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  }

  test.each([
    ['a missing shard', () => [report(1, 3), report(3, 3)], /shard 2\/3 missing/],
    ['a shard given twice', () => [report(1, 2), report(1, 2), report(2, 2)], /shard 1\/2 is given twice/],
    ['shards of different seeds', () => [report(1, 2, 1), report(2, 2, 7)], /shards of different runs \(seed 1 and 7\)/],
    ['shards of different options', () => [report(1, 2, 1, 50), report(2, 2, 1, 5)], /shards of different runs \(option runs: 50 and 5\)/],
    ['shards of runs cut differently', () => [report(1, 2), report(2, 3)], /shards of runs cut differently/],
    ['a whole run', () => [path.join(dir, 'whole.json')], /report of a whole run, not of a shard/],
    ['a file that is not JSON', () => [path.join(dir, 'cut.json')], /is not JSON/],
    ['a file that does not exist', () => [path.join(dir, 'nowhere.json')], /cannot read .*ENOENT/],
    ['another document', () => [report(1, 1)], /is not the document the shards judged/],
  ])('%s: exit 2 with one line', async (_name, files, message) => {
    writeFileSync(path.join(dir, 'whole.json'), JSON.stringify({ shard: null, cells: [], errors: [] }));
    writeFileSync(path.join(dir, 'cut.json'), '{"cells": [');
    const { code, stdout, stderr } = await merge(...files());
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/^conformance: error CNF_ERR_CONFIG_INVALID: /);
    expect(stderr).not.toMatch(/\n\s+at |node_modules/);
  });
});
