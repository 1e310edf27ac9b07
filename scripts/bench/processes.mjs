// What both benchmarks need to run the real services as child processes: free ports, readiness,
// and stopping everything they started (SIGTERM, then SIGKILL after 10 s).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

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

/** Node processes started from the repository root, stopped together in reverse order. */
export function processGroup(root) {
  const children = [];
  return {
    start(label, args, extraEnv) {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: { ...process.env, ...extraEnv },
        // Logs go nowhere (as fast as a log shipper could take them); errors still show.
        stdio: ['ignore', 'ignore', 'inherit'],
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
