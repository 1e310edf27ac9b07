import { idleHeapCheck, releaseHeap, type IdleHeapOptions } from './idle-heap.js';

const MB = 1024 * 1024;
const opts: Required<IdleHeapOptions> = { checkMs: 5000, idleUtilization: 0.02, busyUtilization: 0.1, growthBytes: 16 * MB };

describe('idleHeapCheck (when a quiet service gives its heap back)', () => {
  it('releases at the first idle check after a busy one, then not again until more work', () => {
    let state = { worked: false, baseline: 40 * MB };
    const steps = [0.5, 0.3, 0.01, 0.01, 0.01].map((utilization) => {
      const decided = idleHeapCheck(state, { utilization, heapTotal: 60 * MB }, opts);
      state = decided.release ? { worked: false, baseline: 45 * MB } : decided.state;
      return decided.release;
    });
    expect(steps).toEqual([false, false, true, false, false]);
  });

  it('counts a heap grown past the threshold as work even at low utilisation', () => {
    const quiet = { worked: false, baseline: 40 * MB };
    expect(idleHeapCheck(quiet, { utilization: 0.01, heapTotal: 50 * MB }, opts).release).toBe(false);
    expect(idleHeapCheck(quiet, { utilization: 0.01, heapTotal: 57 * MB }, opts).release).toBe(true);
  });

  it('never releases while requests keep the loop between idle and busy', () => {
    let state = { worked: true, baseline: 40 * MB };
    for (const utilization of [0.05, 0.04, 0.08, 0.03]) {
      const decided = idleHeapCheck(state, { utilization, heapTotal: 41 * MB }, opts);
      expect(decided.release).toBe(false);
      state = decided.state;
    }
    expect(state.worked).toBe(true);
  });
});

describe('releaseHeap', () => {
  it('gives back the heap that garbage grew', () => {
    let garbage: unknown[] | undefined = Array.from({ length: 400_000 }, (_, i) => ({ i, text: `item ${i}` }));
    const grown = process.memoryUsage().heapTotal;
    expect(garbage.length).toBe(400_000);
    garbage = undefined;
    releaseHeap();
    expect(grown - process.memoryUsage().heapTotal).toBeGreaterThan(8 * MB);
    expect(garbage).toBeUndefined();
  });
});
