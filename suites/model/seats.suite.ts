// The seats family of model-based commands (engine/stateful/seats.ts) against the run's target.
import { seatsFamily } from '../../engine/stateful/seats.js';
import { defineFamilySuite } from '../../engine/stateful/model-suite.js';

await defineFamilySuite(seatsFamily);
