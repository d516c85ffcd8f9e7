// The files family of model-based commands (engine/stateful/files.ts) against the run's target.
import { filesFamily } from '../../engine/stateful/files.js';
import { defineFamilySuite } from '../../engine/stateful/model-suite.js';

await defineFamilySuite(filesFamily);
