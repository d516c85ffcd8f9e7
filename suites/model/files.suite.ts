// The files family of model-based commands (generators/commands/files.ts) against the run's target.
import { filesFamily } from '../../generators/commands/files.js';
import { defineFamilySuite } from './family.js';

await defineFamilySuite(filesFamily);
