import { mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The lowest port the OS hands out to outgoing connections (Linux's ip_local_port_range; 32768 elsewhere). */
function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 2048 ? start : 32768;
  } catch {
    return 32768;
  }
}

const LOWEST = 10_000;

/** A claim older than this is someone's leftover even if its pid lives again (pids are reused). */
const CLAIM_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** Where ports are handed out from, and the folder every process on the machine records its claims in. */
export interface PortPool {
  readonly lowest: number;
  readonly highest: number;
  readonly claims: string;
}

function defaultPool(): PortPool {
  return {
    lowest: LOWEST,
    highest: Math.max(LOWEST + 1000, ephemeralStart() - 1),
    claims: process.env['CLIPIT_TEST_PORT_CLAIMS'] ?? join(tmpdir(), 'clipit-test-ports'),
  };
}

/** The claim files this process wrote (the ports it handed out), removed when it exits. */
const ownClaims = new Set<string>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it lives, as someone else's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let exitHook = false;

/**
 * Claims a port for this process across every process of the machine: a file named after it, created
 * exclusively, holding this pid. A claim whose process has died (or that is older than any test run)
 * is taken over.
 */
function claim(pool: PortPool, port: number): boolean {
  const file = join(pool.claims, String(port));
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      ownClaims.add(file);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', () => {
          for (const own of ownClaims) {
            try {
              unlinkSync(own);
            } catch {
              // Already gone.
            }
          }
        });
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = 0;
      let age = 0;
      try {
        holder = Number(readFileSync(file, 'utf8'));
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue; // Removed meanwhile: try again.
      }
      // A claim being written has no pid yet: it is someone's, for now.
      if (holder === 0 && age < 10_000) return false;
      if (alive(holder) && age < CLAIM_LIFETIME_MS) return false;
      try {
        unlinkSync(file);
      } catch {
        // Another process took it over first: its own exclusive create decides.
      }
    }
  }
  return false;
}

/**
 * Ports free right now (the servers bind them a moment later), chosen at random below the range the OS
 * takes outgoing connections' ports from: a service stopped and started again on its port (the fault
 * suite does that all the time) never finds it taken by some client's connection meanwhile. A port is
 * handed out once per process, and claimed in a folder every process shares: servers that have not
 * bound yet cannot collide, whether they belong to this process, another Jest worker or another run.
 */
export async function freePorts(count: number, pool: PortPool = defaultPool()): Promise<number[]> {
  mkdirSync(pool.claims, { recursive: true });
  const ports = new Set<number>();
  for (let attempt = 0; ports.size < count; attempt += 1) {
    if (attempt > count * 200) throw new Error(`no ${count} free ports between ${pool.lowest} and ${pool.highest}`);
    const port = pool.lowest + Math.floor(Math.random() * (pool.highest - pool.lowest + 1));
    if (ports.has(port) || ownClaims.has(join(pool.claims, String(port)))) continue;
    if (!(await canListen(port))) continue;
    if (claim(pool, port)) ports.add(port);
  }
  return [...ports];
}
