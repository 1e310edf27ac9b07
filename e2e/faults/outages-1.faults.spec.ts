// Shard 1 of 2 of the outage scenarios (e2e/faults/support/outages.ts), on a fault platform of its own so
// that the shards run side by side.
import { outageSuite } from './support/outages.js';

await outageSuite(1, 2);
