// Operations that change state: every check that applies to them, each case on a fixture made for
// it (harness/write-cases.ts), run with the stateful suites so that no list walk sees it happen.
import { SUITE_NEEDS } from '../harness/suites.js';
import { defineChecksSuite } from '../harness/suite.js';

await defineChecksSuite(SUITE_NEEDS.writes, 'unsafe');
