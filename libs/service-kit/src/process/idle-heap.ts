import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives a quiet service's memory back (ADR 0046). Under load V8 grows its heap and keeps the pages, and
 * its own memory reducer gets to them only minutes after the load has stopped: a platform of nine idle
 * services held twice what it needed. Every `checkMs` this looks at the event loop: once a service has
 * been idle for a whole check after work (a busy check, or a heap grown by `growthBytes` since the last
 * release), it runs one full collection that also shrinks the young generation and returns free pages.
 * It runs once per quiet spell, never while requests come in, and costs a pause of some tens of
 * milliseconds at a moment nothing waits.
 */
export interface IdleHeapOptions {
  /** How often the event loop is looked at (5 s). */
  checkMs?: number;
  /** Event-loop utilisation at or under which a check counts as idle (2 %). */
  idleUtilization?: number;
  /** Utilisation over which a check counts as work (10 %). */
  busyUtilization?: number;
  /** Heap growth since the last release that counts as work done, even at low utilisation (16 MB). */
  growthBytes?: number;
}

export interface IdleHeapState {
  /** A busy check or heap growth has happened since the last release. */
  worked: boolean;
  /** heapTotal right after the last release (or at start). */
  baseline: number;
}

/** What one check decides: release now or not, and the state to carry to the next check. */
export function idleHeapCheck(
  state: IdleHeapState,
  reading: { utilization: number; heapTotal: number },
  opts: Required<IdleHeapOptions>,
): { release: boolean; state: IdleHeapState } {
  const worked = state.worked || reading.utilization > opts.busyUtilization || reading.heapTotal - state.baseline >= opts.growthBytes;
  if (worked && reading.utilization <= opts.idleUtilization) return { release: true, state: { worked: false, baseline: state.baseline } };
  return { release: false, state: { worked, baseline: state.baseline } };
}

let fullGc: ((options?: object) => void) | undefined;

/**
 * A full collection with V8's "last resort" flavour: it collects everything collectable, shrinks the new
 * space and releases free pages. Node gives scripts no gc() without --expose-gc; this turns the flag on
 * and takes the function from a fresh context, as Jest's --logHeapUsage does, without exposing it globally.
 */
export function releaseHeap(): void {
  if (!fullGc) {
    setFlagsFromString('--expose-gc');
    fullGc = runInNewContext('gc') as (options?: object) => void;
  }
  fullGc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** Starts the checks; `stop()` ends them. The timer never keeps the process alive. */
export function startIdleHeapRelease(options: IdleHeapOptions = {}, onRelease?: (freedBytes: number) => void): { stop(): void } {
  const opts: Required<IdleHeapOptions> = {
    checkMs: 5000,
    idleUtilization: 0.02,
    busyUtilization: 0.1,
    growthBytes: 16 * 1024 * 1024,
    ...options,
  };
  let state: IdleHeapState = { worked: false, baseline: process.memoryUsage().heapTotal };
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const before = process.memoryUsage().heapTotal;
    const decided = idleHeapCheck(state, { utilization, heapTotal: before }, opts);
    state = decided.state;
    if (!decided.release) return;
    releaseHeap();
    const after = process.memoryUsage().heapTotal;
    state = { worked: false, baseline: after };
    // The collection itself shows as utilisation in the next check: start that window after it.
    last = performance.eventLoopUtilization();
    onRelease?.(before - after);
  }, opts.checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
