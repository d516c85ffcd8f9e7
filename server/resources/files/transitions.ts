/**
 * The transition table of a file (data only): read by the reference's state machine
 * (./machine.ts) and by the harness's stateful suites and transition coverage
 * (engine/stateful/transitions.ts), which must not load the server's runtime to read it.
 * @see docs/design.md (Reference server: explicit transition tables per resource)
 */
import type { TransitionTable } from '../../machine.js';

/** A file's state: `uploaded` once is_uploaded is true. */
export type FileState = 'pending' | 'uploaded';

/** Transitions of a file. */
export const FILE_TRANSITIONS = {
  complete_upload: { from: ['pending'], to: 'uploaded', events: [] },
} as const satisfies TransitionTable<FileState, 'complete_upload'>;

/** A transition name of {@link FILE_TRANSITIONS}. */
export type FileTransition = keyof typeof FILE_TRANSITIONS;
