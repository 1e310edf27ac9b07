// Shard 2 of 2 of the outage scenarios (e2e/faults/support/outages.ts), on a fault platform of its own so
// that the shards run side by side. Its NATS is a 3-node JetStream cluster (ADR 0054), and one node of it goes
// away too (`nats-node`); shard 1 keeps one server and the outages of the whole of NATS.
import { outageSuite } from './support/outages.js';

await outageSuite(2, 2, { nats: 'cluster' });
