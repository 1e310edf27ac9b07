import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** How a managed process is started again after a stop or a kill: the same command, the same environment. */
export interface ProcessSpec {
  /** Shown in logs and errors, e.g. `nats`, `submissions#2`. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as this user (a server that refuses to run as root, such as postgres). */
  uid?: number;
  gid?: number;
  /**
   * Resolves true once the process serves; polled after every start. A rejection is a "not yet" too, and
   * its message (the last one) goes into the error of a start that timed out, with the process's output.
   */
  ready: () => Promise<boolean>;
  /** How long a start may take before it fails (default 30 s). */
  readyTimeoutMs?: number;
  /** How long a stop waits after its signal before SIGKILL (default 10 s). */
  stopGraceMs?: number;
  /** The signal a stop sends (default SIGTERM); a server whose SIGTERM waits for its clients names its fast one. */
  stopSignal?: NodeJS.Signals;
  /**
   * The process leads a group of its own children (PostgreSQL's postmaster and its backends): kill() SIGKILLs
   * the whole group, as a crash of its machine would, and waits until none of it is left. Killing the
   * postmaster alone left its backends holding the shared memory for a moment, and a restart in that moment
   * refused to start ("pre-existing shared memory block is still in use").
   */
  group?: boolean;
}

export type ProcessState = 'running' | 'stopped' | 'killed' | 'paused' | 'crashed';

const LOG_LINES = 400;

/** Every process any harness started in this Node process, killed when it exits however it exits. */
const live = new Set<ManagedProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: a SIGKILL is, and nothing must outlive a failed test run.
  process.once('exit', () => {
    for (const p of live) p.killNow();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A process a test starts, stops (SIGTERM, then SIGKILL after a grace), kills (SIGKILL), pauses
 * (SIGSTOP: alive but silent, as a hung server) and starts again with the same command. Keeps the
 * last lines of its output for the failure message of a test, and its exits for assertions.
 */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private exitedPromise: Promise<void> = Promise.resolve();
  readonly logs: string[] = [];
  /** Every exit, in order: how it ended and whether the harness asked for it. */
  readonly exits: Array<{ code: number | null; signal: NodeJS.Signals | null; expected: boolean; at: number }> = [];
  private expectingExit = false;
  state: ProcessState = 'stopped';

  constructor(readonly spec: ProcessSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts it and waits until `ready` answers true; throws with its last output otherwise. */
  async start(): Promise<void> {
    if (this.state === 'running' || this.state === 'paused') throw new Error(`${this.spec.name} is already running`);
    installExitHook();
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: this.spec.env ?? process.env,
      uid: this.spec.uid,
      gid: this.spec.gid,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: this.spec.group === true,
    });
    this.child = child;
    this.expectingExit = false;
    this.state = 'running';
    live.add(this);
    const keep = (line: string) => {
      this.logs.push(line);
      if (this.logs.length > LOG_LINES) this.logs.splice(0, this.logs.length - LOG_LINES);
    };
    createInterface({ input: child.stdout! }).on('line', keep);
    createInterface({ input: child.stderr! }).on('line', keep);
    this.exitedPromise = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exits.push({ code, signal, expected: this.expectingExit, at: Date.now() });
        if (this.child === child) {
          this.child = undefined;
          live.delete(this);
          if (!this.expectingExit) this.state = 'crashed';
        }
        resolve();
      });
    });
    child.once('error', (err) => keep(`[harness] could not start ${this.spec.command}: ${err.message}`));

    const deadline = Date.now() + (this.spec.readyTimeoutMs ?? 30_000);
    let lastAnswer = 'no answer yet';
    for (;;) {
      if ((this.state as ProcessState) === 'crashed' || !this.child) {
        throw new Error(`${this.spec.name} exited while starting:\n${this.tail()}`);
      }
      const ready = await this.spec.ready().catch((err: Error) => {
        lastAnswer = err.message;
        return false;
      });
      if (ready) return;
      if (Date.now() > deadline) {
        await this.kill();
        throw new Error(
          `${this.spec.name} was not ready within ${this.spec.readyTimeoutMs ?? 30_000} ms (its last answer: ${lastAnswer}):\n${this.tail()}`,
        );
      }
      await sleep(100);
    }
  }

  /** The stop signal (SIGTERM) and wait for the exit; SIGKILL after the grace period. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (this.state === 'paused') child.kill('SIGCONT');
    this.expectingExit = true;
    this.state = 'stopped';
    child.kill(this.spec.stopSignal ?? 'SIGTERM');
    // SIGKILL after the grace period; the timer goes as soon as the process has exited.
    const timer = setTimeout(() => child.kill('SIGKILL'), this.spec.stopGraceMs ?? 10_000);
    await this.exitedPromise;
    clearTimeout(timer);
  }

  /** SIGKILL: the process dies in the middle of whatever it was doing. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.expectingExit = true;
    this.state = 'killed';
    if (this.spec.group && child.pid !== undefined) {
      const group = -child.pid;
      process.kill(group, 'SIGKILL');
      await this.exitedPromise;
      // The leader's exit is reported before its children are gone: wait for the group to be empty.
      for (const until = Date.now() + 10_000; groupAlive(group) && Date.now() < until;) await new Promise((r) => setTimeout(r, 20));
      return;
    }
    child.kill('SIGKILL');
    await this.exitedPromise;
  }

  /** SIGSTOP: still holding its sockets, answering nothing (a hung process, a partition). */
  pause(): void {
    if (!this.child || this.state !== 'running') throw new Error(`${this.spec.name} is not running`);
    this.child.kill('SIGSTOP');
    this.state = 'paused';
  }

  resume(): void {
    if (!this.child || this.state !== 'paused') throw new Error(`${this.spec.name} is not paused`);
    this.child.kill('SIGCONT');
    this.state = 'running';
  }

  /** Stops (or kills) it, keeps it down for `ms`, starts it again; answers when it is ready. */
  async outage(ms: number, how: 'stop' | 'kill' | 'pause' = 'kill'): Promise<void> {
    if (how === 'pause') {
      this.pause();
      await sleep(ms);
      this.resume();
      return;
    }
    await (how === 'kill' ? this.kill() : this.stop());
    await sleep(ms);
    await this.start();
  }

  /** Used by the exit hook only: synchronous. */
  killNow(): void {
    try {
      const pid = this.child?.pid;
      if (this.spec.group && pid !== undefined) process.kill(-pid, 'SIGKILL');
      else this.child?.kill('SIGKILL');
    } catch {
      // already gone
    }
  }

  /** The last lines of output, for an error message. */
  tail(lines = 40): string {
    return this.logs.slice(-lines).join('\n');
  }

  /** Exits the harness did not cause (a crash). */
  unexpectedExits() {
    return this.exits.filter((e) => !e.expected);
  }
}

/** Whether any process of the group `-pgid` is still there (signal 0 checks without sending). */
function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}
