/**
 * The state machines the stateful suites exercise, as edges (`order: pending→paid`), read from the
 * reference server's declarative transition tables (never its handlers, so that a bug in a handler
 * cannot pass its own test), and the transition coverage of a run's cells.
 * @see docs/design.md (Reference server: explicit transition tables per resource); docs/stateful.md (Model-based suites;
 *   Transition coverage); docs/architecture.md (Floors)
 */
import type { CellMeta } from '../../core/types.js';
import { SEAT_TRANSITIONS } from '../../server/resources/customer-seats/transitions.js';
import { CUSTOMER_TRANSITIONS } from '../../server/resources/customers/transitions.js';
import { FILE_TRANSITIONS } from '../../server/resources/files/transitions.js';
import { LICENSE_KEY_TRANSITIONS } from '../../server/resources/license-keys/transitions.js';
import { ORDER_TRANSITIONS } from '../../server/resources/orders/transitions.js';
import { SUBSCRIPTION_TRANSITIONS } from '../../server/resources/subscriptions/transitions.js';

/** A transition table as the reference declares it: named transitions from any of `from` to `to`. */
type Table = Readonly<Record<string, { readonly from: readonly string[]; readonly to: string }>>;

/** One state machine: its name (the resource, snake_case) and its edges, in table order. */
export interface StateMachine {
  machine: string;
  edges: string[];
}

/** Separates the states of an edge (`pending→paid`). */
export const EDGE_ARROW = '→';

/** The edge name of a transition of `machine` (`order: pending→paid`). */
export function edge(machine: string, from: string, to: string): string {
  return `${machine}: ${from}${EDGE_ARROW}${to}`;
}

function machineOf(machine: string, table: Table): StateMachine {
  const edges = Object.values(table).flatMap((transition) => transition.from.map((from) => edge(machine, from, transition.to)));
  return { machine, edges: [...new Set(edges)] };
}

/** Every state machine of the reference, with every edge its tables allow. */
export const STATE_MACHINES: readonly StateMachine[] = [
  machineOf('order', ORDER_TRANSITIONS),
  machineOf('subscription', SUBSCRIPTION_TRANSITIONS),
  machineOf('seat', SEAT_TRANSITIONS),
  machineOf('license_key', LICENSE_KEY_TRANSITIONS),
  machineOf('customer', CUSTOMER_TRANSITIONS),
  machineOf('file', FILE_TRANSITIONS),
];

/** Every known edge name. */
export const KNOWN_EDGES: ReadonlySet<string> = new Set(STATE_MACHINES.flatMap((m) => m.edges));

/**
 * The states of `machine` that have an edge to `to`, in table order (`subscription`, `canceled`:
 * every status a cancellation starts from).
 * @returns empty for an unknown machine or state
 */
export function statesLeadingTo(machine: string, to: string, machines: readonly StateMachine[] = STATE_MACHINES): string[] {
  const suffix = `${EDGE_ARROW}${to}`;
  const prefix = `${machine}: `;
  const edges = machines.find((m) => m.machine === machine)?.edges ?? [];
  return edges.filter((e) => e.endsWith(suffix)).map((e) => e.slice(prefix.length, -suffix.length));
}

/** The coverage of one machine: each of its edges and whether a cell recorded it. */
export interface MachineCoverage {
  machine: string;
  edges: { edge: string; exercised: boolean }[];
}

/** Transition coverage of a run: per machine, plus the edges cells recorded that no table has (a scenario bug, shown rather than hidden). */
export interface TransitionCoverage {
  machines: MachineCoverage[];
  exercised: number;
  total: number;
  unknown: string[];
}

/**
 * The transition coverage of a run's cells, or undefined when no cell records transitions (no
 * stateful scenario ran). A cell's edges count whatever its status: the transition happened.
 */
export function transitionCoverage(cells: readonly CellMeta[], machines: readonly StateMachine[] = STATE_MACHINES): TransitionCoverage | undefined {
  const recorded = cells.filter((cell) => cell.transitions !== undefined);
  if (recorded.length === 0) return undefined;
  const seen = new Set(recorded.flatMap((cell) => cell.transitions ?? []));
  const known = new Set(machines.flatMap((m) => m.edges));
  const coverage = machines.map((m) => ({ machine: m.machine, edges: m.edges.map((e) => ({ edge: e, exercised: seen.has(e) })) }));
  const all = coverage.flatMap((m) => m.edges);
  return { machines: coverage, exercised: all.filter((e) => e.exercised).length, total: all.length, unknown: [...seen].filter((e) => !known.has(e)).sort() };
}

/**
 * The "Transition coverage" block of the console report: one line per machine with each edge
 * marked ✓ (exercised) or – (not), then a count; '' when no stateful scenario ran.
 * @param mark colours a mark by whether its edge was exercised (identity by default)
 * @param maxWidth columns a line may take; longer lists of edges wrap
 */
export function renderTransitionCoverage(cells: readonly CellMeta[], mark: (text: string, exercised: boolean) => string = (text) => text, maxWidth = 100): string {
  const coverage = transitionCoverage(cells);
  if (!coverage) return '';
  const width = Math.max(...coverage.machines.map((m) => m.machine.length));
  const lines = ['Transition coverage (state machines exercised by the stateful suites)'];
  for (const m of coverage.machines) {
    // Edges wrap so that a line stays within the report's width (marks are one column wide).
    const indent = width + 4;
    let line = `  ${m.machine.padEnd(width)}  `;
    let length = indent;
    for (const e of m.edges) {
      const text = `${e.edge.slice(m.machine.length + 2)} `;
      const separator = length > indent ? '  ' : '';
      if (length > indent && length + separator.length + text.length + 1 > maxWidth) {
        lines.push(line);
        line = ' '.repeat(indent);
        length = indent;
      }
      const gap = length > indent ? '  ' : '';
      line += `${gap}${text}${mark(e.exercised ? '✓' : '–', e.exercised)}`;
      length += gap.length + text.length + 1;
    }
    lines.push(line);
  }
  if (coverage.unknown.length > 0) lines.push(`  not in any table: ${coverage.unknown.join(', ')}`);
  lines.push(`  ${coverage.exercised}/${coverage.total} edges exercised`);
  return lines.join('\n');
}
