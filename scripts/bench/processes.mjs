// What both benchmarks need to run the real services as child processes: free ports, readiness,
// and stopping everything they started (SIGTERM, then SIGKILL after 10 s).
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { runtimeEnv, SERVICES } from '../../deploy/launcher/services.mjs';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; fails early if the child exits first. */
export async function waitReady(url, label, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${label} not ready at ${url} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The environment of a benchmark's Node process: a service (`services/<name>/dist/main.js` among `args`) gets
 * the memory settings `npm start` gives it (deploy/launcher/services.mjs `runtime`, ADR 0046), so a benchmark
 * measures the processes that run. BENCH_SERVICE_RUNTIME=0 leaves them out (V8's and glibc's defaults), to
 * compare; BENCH_<SERVICE>_NODE_ARGS still comes after them on the command line.
 */
export function benchProcessEnv(args, env) {
  const name = args.map((a) => /(?:^|\/)services\/([^/]+)\/dist\/main\.js$/.exec(a)?.[1]).find(Boolean);
  const service = SERVICES.find((s) => s.name === name);
  return service && process.env.BENCH_SERVICE_RUNTIME !== '0' ? runtimeEnv(service, env) : env;
}

/**
 * Node processes started from the repository root, stopped together in reverse order. Their logs go
 * nowhere (as fast as a log shipper could take them; errors on stderr still show), or with BENCH_LOG_DIR
 * set into `<dir>/<label>.log` each, to find out afterwards why a run saw answers that were not 2xx.
 */
export function processGroup(root) {
  const children = [];
  const logDir = process.env.BENCH_LOG_DIR;
  if (logDir) mkdirSync(logDir, { recursive: true });
  return {
    start(label, args, extraEnv) {
      const out = logDir ? openSync(join(logDir, `${label.replace(/[^\w.-]+/g, '-')}.log`), 'a') : 'ignore';
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: benchProcessEnv(args, { ...process.env, ...extraEnv }),
        stdio: ['ignore', out, 'inherit'],
      });
      children.push({ label, child });
      return child;
    },
    async stop() {
      for (const { child } of children.reverse()) {
        if (child.exitCode !== null) continue;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** CPU time (user + system, all threads) a child has used so far, in ms; undefined where /proc is missing. */
export function cpuMs(child) {
  const split = cpuSplitMs(child);
  return split && split.user + split.system;
}

/** The same, user and system apart; undefined where /proc is missing. */
export function cpuSplitMs(child) {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // Clock ticks (USER_HZ = 100).
    return { user: (Number(fields[11]) * 1000) / 100, system: (Number(fields[12]) * 1000) / 100 };
  } catch {
    return undefined;
  }
}

/**
 * Node's own arguments for one service's process, from BENCH_<SERVICE>_NODE_ARGS (space-separated), e.g.
 * BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (flags NODE_OPTIONS refuses included).
 */
export function benchNodeArgs(service) {
  return (process.env[`BENCH_${service.toUpperCase().replace(/-/g, '_')}_NODE_ARGS`] ?? '').split(/\s+/).filter(Boolean);
}
