/**
 * Runs the conformance suites through vitest's Node API so that a SIGINT or SIGTERM (Ctrl+C, a CI
 * job's timeout) ends the run with its reports: the signal marks the run interrupted for every
 * worker (core/breaker.ts: no further request is sent, in-flight ones are aborted), vitest's run
 * is cancelled, and the reporters' `onTestRunEnd` sees the reason `interrupted`, which every report
 * shows as an incomplete matrix. A second signal exits at once.
 * @see docs/decisions.md (Harness: "A signal ends the run with its reports")
 */
import type { Vitest } from 'vitest/node';
import type { RunBreaker } from '../core/breaker.js';

/** The signals that interrupt a run, with the exit code of each (128 + the signal's number, as shells report it). */
export const INTERRUPT_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** A signal that interrupts a run. */
export type InterruptSignal = keyof typeof INTERRUPT_EXIT_CODES;

/** What {@link runInterruptibly} ends with: the signal that cut the run, if one did. */
export interface InterruptibleOutcome {
  interruptedBy?: InterruptSignal;
}

/** One vitest of a run: how to create it and the files it runs. */
export interface VitestPlan {
  create: () => Promise<Vitest>;
  files: string[];
}

/**
 * Creates each vitest of `plans` (`create`, e.g. `() => createVitest({...})`), replaces vitest's
 * own SIGINT/SIGTERM handlers (which exit the process a millisecond later, before any report is
 * written) with ours, runs each one's `files`, all at once, and closes them. A run has two when
 * its stateful group runs beside the other suites against a target of its own (cli/run.ts).
 * @param breaker the run's breaker, marked interrupted on the first signal
 * @throws whatever `create` or `vitest.start` throws (the caller maps it to CNF_ERR_RUNNER)
 */
export async function runInterruptibly(plans: readonly VitestPlan[], breaker: RunBreaker): Promise<InterruptibleOutcome> {
  const outcome: InterruptibleOutcome = {};
  const vitests: Vitest[] = [];
  const onSignal = (signal: InterruptSignal): void => {
    if (outcome.interruptedBy) {
      // A second signal: the person or the CI job will not wait for the reports.
      process.exit(INTERRUPT_EXIT_CODES[outcome.interruptedBy]);
    }
    outcome.interruptedBy = signal;
    breaker.interrupt(signal);
    for (const vitest of vitests) void vitest.cancelCurrentRun('keyboard-input');
  };
  const handlers = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };
  const before = { SIGINT: new Set(process.listeners('SIGINT')), SIGTERM: new Set(process.listeners('SIGTERM')) };
  process.on('SIGINT', handlers.SIGINT);
  process.on('SIGTERM', handlers.SIGTERM);
  try {
    for (const plan of plans) vitests.push(await plan.create());
    // vitest's logger registers handlers that set the exit code and exit; ours end the run instead.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) {
        if (!before[signal].has(listener) && listener !== handlers[signal]) process.off(signal, listener);
      }
    }
    // Started even when a signal came during creation: the breaker refuses every request at once,
    // and the reporters still write what little there is.
    await Promise.all(vitests.map((vitest, i) => vitest.start(plans[i]!.files)));
    return outcome;
  } finally {
    for (const vitest of vitests) await vitest.close();
    process.off('SIGINT', handlers.SIGINT);
    process.off('SIGTERM', handlers.SIGTERM);
  }
}
