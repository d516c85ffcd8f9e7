// Operations that change state: every check that applies to them, each case on a fixture made for
// it (engine/write-cases.ts), run with the stateful suites so that no list walk sees it happen.
import { SUITE_NEEDS } from '../engine/suites.js';
import { defineChecksSuite } from '../engine/suite.js';

await defineChecksSuite(SUITE_NEEDS.writes, 'unsafe');
