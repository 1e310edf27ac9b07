import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

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

/** Every port this process has handed out: two calls never give the same port to two servers. */
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Ports free right now (the servers bind them a moment later), chosen at random below the range the OS
 * takes outgoing connections' ports from: a service stopped and started again on its port (the fault
 * suite does that all the time) never finds it taken by some client's connection meanwhile. A port is
 * handed out once per process: servers of separate calls that have not bound yet cannot collide.
 */
export async function freePorts(count: number): Promise<number[]> {
  const highest = Math.max(LOWEST + 1000, ephemeralStart() - 1);
  const ports = new Set<number>();
  for (let attempt = 0; ports.size < count; attempt += 1) {
    if (attempt > count * 200) throw new Error(`no ${count} free ports between ${LOWEST} and ${highest}`);
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (handedOut.has(port) || ports.has(port)) continue;
    if (await canListen(port)) ports.add(port);
  }
  for (const port of ports) handedOut.add(port);
  return [...ports];
}
