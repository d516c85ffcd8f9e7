// Transition coverage: the edges come from the reference's declarative tables, cells record the
// ones they saw, and the console report shows the block only when a stateful scenario ran.
import { describe, expect, test } from 'vitest';
import { edge, KNOWN_EDGES, renderTransitionCoverage, STATE_MACHINES, statesLeadingTo, transitionCoverage } from '../../../engine/stateful/transitions.js';
import type { CellMeta } from '../../../core/types.js';
import { renderConsoleReport } from '../../../reporters/console.js';

const cell = (checkId: string, transitions?: string[], status: CellMeta['status'] = 'passed'): CellMeta => ({ operationId: 'orders:update', checkId, status, cases: 1, failures: [], ...(transitions ? { transitions } : {}) });
const info = { title: 'Conformance run', target: 'http://127.0.0.1:1', specVersion: '2026-10', seed: 1, startedAt: '2026-06-01T12:00:00Z', durationMs: 1000 };

describe('state machines', () => {
  test('every machine of the reference is there, with the edges of its table', () => {
    expect(STATE_MACHINES.map((m) => m.machine)).toEqual(['order', 'subscription', 'seat', 'license_key', 'customer', 'file']);
    expect(KNOWN_EDGES.has('order: pending→paid')).toBe(true);
    expect(KNOWN_EDGES.has('seat: claimed→revoked')).toBe(true);
    expect(KNOWN_EDGES.has('subscription: active→canceled')).toBe(true);
    expect(edge('file', 'pending', 'uploaded')).toBe('file: pending→uploaded');
  });

  test.each<[string, string, string[]]>([
    ['subscription', 'canceled', ['incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'paused']],
    ['seat', 'revoked', ['pending', 'claimed']],
    ['order', 'paid', ['pending']],
    ['order', 'refunded', []],
    ['unknown', 'canceled', []],
  ])('statesLeadingTo(%s, %s)', (machine, to, expected) => {
    expect(statesLeadingTo(machine, to)).toEqual(expected);
  });
});

describe('transitionCoverage', () => {
  test('undefined when no cell records transitions (no stateful scenario ran)', () => {
    expect(transitionCoverage([cell('pagination_defaults')])).toBeUndefined();
  });

  test('an edge counts once any cell recorded it, whatever the cell status; unknown edges are shown', () => {
    const coverage = transitionCoverage([cell('a', ['order: pending→paid'], 'failed'), cell('b', []), cell('c', ['order: pending→paid', 'order: paid→refunded'])])!;
    expect(coverage.exercised).toBe(1);
    expect(coverage.total).toBe(STATE_MACHINES.flatMap((m) => m.edges).length);
    expect(coverage.machines[0]).toEqual({ machine: 'order', edges: [{ edge: 'order: pending→paid', exercised: true }] });
    expect(coverage.unknown).toEqual(['order: paid→refunded']);
  });
});

describe('the console report', () => {
  test('shows the Transition coverage block with each edge marked, wrapped to the width', () => {
    const text = renderTransitionCoverage([cell('a', ['order: pending→paid', 'subscription: active→canceled'])], undefined, 60);
    expect(text.split('\n')[0]).toBe('Transition coverage (state machines exercised by the stateful suites)');
    expect(text).toContain('  order         pending→paid ✓');
    expect(text).toContain('active→canceled ✓');
    expect(text).toContain('trialing→canceled –');
    expect(text).toMatch(/2\/\d+ edges exercised$/);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(70);
  });

  test('renderConsoleReport has the block after a stateful run and not otherwise', () => {
    expect(renderConsoleReport({ cells: [cell('a', ['file: pending→uploaded'])], errors: [] }, info)).toContain('Transition coverage');
    expect(renderConsoleReport({ cells: [cell('pagination_defaults')], errors: [] }, info)).not.toContain('Transition coverage');
  });
});
