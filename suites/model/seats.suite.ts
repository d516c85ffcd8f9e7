// The seats family of model-based commands (generators/commands/seats.ts) against the run's target.
import { seatsFamily } from '../../generators/commands/seats.js';
import { defineFamilySuite } from './family.js';

await defineFamilySuite(seatsFamily);
