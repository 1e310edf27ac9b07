// Keeps the platform's services running under `npm start` (start.mjs): starts each one, waits for its
// readiness, and once the platform is up restarts a service that exits unexpectedly, with exponential
// backoff, instead of taking everything down with it. It gives up (and the launcher stops everything) only
// when a service keeps crashing. Plain Node ESM with no dependencies, so it is tested on small child
// processes without building the platform (libs/testing/test/integration/supervisor.int.spec.ts).
import { createInterface } from 'node:readline';

/**
 * @typedef {object} SupervisorOptions
 * @property {(msg: string) => void} log          progress lines (restarts, "ready again")
 * @property {(msg: string) => void} warn         problems (unexpected exits, giving up)
 * @property {(name: string, line: string, stream: 'stdout' | 'stderr') => void} [onLine]  each output line of a service
 * @property {(reason: string) => void} [onGiveUp] called once when a service keeps crashing; the caller stops the rest
 * @property {number} [initialDelayMs]   first restart delay (1 s); doubled for each further crash
 * @property {number} [maxDelayMs]       cap of the restart delay (30 s)
 * @property {number} [stableMs]         a service up this long counts as healthy again: the backoff starts over (60 s)
 * @property {number} [crashLimit]       this many crashes ...
 * @property {number} [crashWindowMs]    ... within this long (5 in 2 min) and the supervisor gives up
 * @property {number} [readyTimeoutMs]   how long a (re)started service may take to answer its readiness URL (120 s)
 * @property {number} [stopGraceMs]      SIGTERM, then SIGKILL after this long (10 s)
 * @property {number} [signalGraceMs]    a Ctrl-C in the terminal reaches the services too: an exit is judged after this long (250 ms)
 * @property {number} [tailLines]        output lines kept per service for the give-up message (20)
 */

/**
 * @typedef {object} Entry
 * @property {string} name
 * @property {() => import('node:child_process').ChildProcess} spawn
 * @property {string} readyUrl
 * @property {import('node:child_process').ChildProcess} child
 * @property {boolean} exited
 * @property {number | string | null} exitCode   exit code, or the signal's name
 * @property {number} startedAt
 * @property {number} attempt                     restarts since the service last stayed up for stableMs
 * @property {number[]} crashes                   times of the crashes within crashWindowMs
 * @property {string[]} tail                      its last output lines
 * @property {NodeJS.Timeout | undefined} restartTimer
 */

export class SupervisorError extends Error {}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms) => `${Number((ms / 1000).toFixed(1))} s`;

/** "signal SIGKILL" or "exit code 1". */
export function describeExit(code, signal) {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

/** The restart delay after the `attempt`-th crash in a row (1-based): initial, 2×, 4× … capped. */
export function backoffDelay(attempt, initialDelayMs = 1000, maxDelayMs = 30_000) {
  return Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, attempt - 1));
}

export class Supervisor {
  /** @param {SupervisorOptions} opts */
  constructor(opts) {
    this.opts = {
      onLine: () => undefined,
      onGiveUp: () => undefined,
      initialDelayMs: 1000,
      maxDelayMs: 30_000,
      stableMs: 60_000,
      crashLimit: 5,
      crashWindowMs: 120_000,
      readyTimeoutMs: 120_000,
      stopGraceMs: 10_000,
      signalGraceMs: 250,
      tailLines: 20,
      ...opts,
    };
    /** @type {Entry[]} */
    this.entries = [];
    // While starting, an exit fails the start-up as a whole (waitReady reports it); afterwards it is restarted.
    this.supervising = false;
    this.stopping = false;
    this.gaveUp = false;
  }

  /** Starts a service; `spawn` starts its process (again on each restart), `readyUrl` answers 200 when it is ready. */
  start(name, spawn, readyUrl) {
    /** @type {Entry} */
    const entry = {
      name,
      spawn,
      readyUrl,
      exited: true,
      exitCode: null,
      startedAt: 0,
      attempt: 0,
      crashes: [],
      tail: [],
      restartTimer: undefined,
    };
    this.entries.push(entry);
    this.#run(entry);
    return entry;
  }

  /** From now on a service that exits unexpectedly is restarted (call once the platform is up). */
  supervise() {
    this.supervising = true;
  }

  /** Waits for a service's readiness during start-up; fails if any service exits meanwhile or it takes too long. */
  async waitReady(entry) {
    const deadline = Date.now() + this.opts.readyTimeoutMs;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      const dead = this.entries.find((e) => e.exited);
      if (dead) throw new SupervisorError(`${dead.name} exited (${dead.exitCode}) before the platform was up; its output is above.`);
      last = await probe(entry.readyUrl);
      if (last === 'ready') return;
      await sleep(300);
    }
    throw new SupervisorError(
      `${entry.name} was not ready within ${seconds(this.opts.readyTimeoutMs)} at ${entry.readyUrl} (last answer: ${last}).`,
    );
  }

  /** Stops every service: SIGTERM, then SIGKILL for those still running after the grace period. */
  async stop() {
    this.stopping = true;
    for (const entry of this.entries) {
      clearTimeout(entry.restartTimer);
      entry.restartTimer = undefined;
    }
    const running = this.running();
    if (running.length > 0) this.opts.log(`stopping ${running.map((e) => e.name).join(', ')}`);
    for (const entry of running) entry.child.kill('SIGTERM');
    await Promise.all(
      running.map(async (entry) => {
        if (await waitExit(entry, this.opts.stopGraceMs)) return;
        this.opts.warn(`${entry.name} did not stop within ${seconds(this.opts.stopGraceMs)}: killing it`);
        entry.child.kill('SIGKILL');
        await waitExit(entry, 2000);
      }),
    );
  }

  /** Kills every service at once (a second Ctrl-C). */
  kill() {
    this.stopping = true;
    for (const entry of this.entries) clearTimeout(entry.restartTimer);
    for (const entry of this.running()) entry.child.kill('SIGKILL');
  }

  running() {
    return this.entries.filter((e) => !e.exited);
  }

  #run(entry) {
    const child = entry.spawn();
    entry.child = child;
    entry.exited = false;
    entry.exitCode = null;
    entry.startedAt = Date.now();
    const keep = (stream) => (line) => {
      entry.tail.push(line);
      if (entry.tail.length > this.opts.tailLines) entry.tail.shift();
      this.opts.onLine(entry.name, line, stream);
    };
    if (child.stdout) createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', keep('stdout'));
    if (child.stderr) createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', keep('stderr'));
    child.on('error', (err) => this.opts.warn(`${entry.name}: ${err.message}`));
    child.on('exit', (code, signal) => {
      entry.exited = true;
      entry.exitCode = code ?? signal;
      if (this.stopping || !this.supervising) return;
      // A Ctrl-C in the terminal reaches the services too; give the launcher's signal handler a moment to run first.
      setTimeout(() => {
        if (!this.stopping && entry.child === child) this.#crashed(entry, describeExit(code, signal));
      }, this.opts.signalGraceMs);
    });
  }

  #crashed(entry, how) {
    const now = Date.now();
    // A service that stayed up for a while was healthy: its next crash starts the backoff over.
    if (now - entry.startedAt >= this.opts.stableMs) entry.attempt = 0;
    entry.crashes = entry.crashes.filter((t) => now - t < this.opts.crashWindowMs);
    entry.crashes.push(now);
    if (entry.crashes.length >= this.opts.crashLimit) {
      this.#giveUp(entry, how);
      return;
    }
    entry.attempt += 1;
    const delay = backoffDelay(entry.attempt, this.opts.initialDelayMs, this.opts.maxDelayMs);
    this.opts.warn(`${entry.name} exited unexpectedly (${how}): restarting it in ${seconds(delay)} (attempt ${entry.attempt})`);
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = undefined;
      if (this.stopping) return;
      this.opts.log(`restarting ${entry.name} (attempt ${entry.attempt}, waiting for ${entry.readyUrl})`);
      this.#run(entry);
      void this.#watchReady(entry, entry.child, entry.attempt);
    }, delay);
  }

  async #watchReady(entry, child, attempt) {
    const t0 = Date.now();
    const deadline = t0 + this.opts.readyTimeoutMs;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      // Exited again (its exit is handled as another crash) or being stopped: nothing to report here.
      if (this.stopping || entry.child !== child || entry.exited) return;
      last = await probe(entry.readyUrl);
      if (last === 'ready') {
        if (this.stopping || entry.child !== child || entry.exited) return;
        this.opts.log(`${entry.name} is ready again (attempt ${attempt}, ${seconds(Date.now() - t0)})`);
        return;
      }
      await sleep(300);
    }
    this.opts.warn(`${entry.name} is running but not ready ${seconds(this.opts.readyTimeoutMs)} after its restart (last answer: ${last})`);
  }

  #giveUp(entry, how) {
    if (this.gaveUp) return;
    this.gaveUp = true;
    const window = seconds(this.opts.crashWindowMs);
    const tail = entry.tail.length > 0 ? `\n  its last output:\n${entry.tail.map((l) => `    ${l}`).join('\n')}` : '\n  it wrote nothing';
    const reason = `${entry.name} keeps crashing (${entry.crashes.length} times within ${window}, the last with ${how}): giving up${tail}`;
    this.opts.warn(reason);
    this.opts.onGiveUp(reason);
  }
}

/** 'ready' when the URL answers 200, otherwise what it answered. */
async function probe(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    if (res.status === 200) {
      await res.body?.cancel();
      return 'ready';
    }
    return `HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`;
  } catch (err) {
    const cause = err.cause ?? err;
    return (cause instanceof AggregateError ? cause.errors.map((e) => e.message).join('; ') : cause.message) || String(cause);
  }
}

function waitExit(entry, ms) {
  if (entry.exited) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    entry.child.once('exit', () => (clearTimeout(timer), resolve(true)));
  });
}
