// Page walks: every page of a generated filtered list, then the page past the last.
import { defineChecksSuite } from '../harness/suite.js';

await defineChecksSuite(['walk']);
