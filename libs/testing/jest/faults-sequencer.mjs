// The fault suite's order (jest.faults.config.js): its two Jest workers each take a file, and the third
// goes to whichever is free first. Jest's own order (the last run's durations, or file sizes on a fresh
// clone) paired the replicas check with either shard; the replicas check (about 80 s) and the first shard,
// which carries fewer parts (e2e/faults/support/outages.ts), add up to about the last shard. So: the last
// shard first, then the replicas check, then the others in name order.
import Sequencer from '@jest/test-sequencer';

const BaseSequencer = Sequencer.default ?? Sequencer;

/** The last shard first, the replicas check next, then the other shards and anything else by name. */
export default class FaultsSequencer extends BaseSequencer {
  sort(tests) {
    const shardOf = (path) => Number(/outages-(\d+)\.faults\.spec\.ts$/.exec(path)?.[1] ?? 0);
    const last = Math.max(0, ...tests.map((t) => shardOf(t.path)));
    const rank = (path) => (last > 0 && shardOf(path) === last ? 0 : /replicas\.faults\.spec\.ts$/.test(path) ? 1 : 2);
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
