import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import pg from 'pg';
import { freePorts } from '../ports.js';
import { ManagedProcess } from './managed-process.js';

/**
 * A server of the test's own (NATS with JetStream, Redis, PostgreSQL) on free ports with its data in
 * a temporary folder: stop, kill, pause or restart it in the middle of a journey without touching
 * the machine's shared servers. Its data survives restarts (the same folder); `close()` removes it.
 */
export interface PrivateServer {
  /** The URL clients connect with, e.g. `nats://127.0.0.1:41234`. */
  url: string;
  port: number;
  process: ManagedProcess;
  dataDir: string;
  /** Stops the server and removes its data. */
  close(): Promise<void>;
}

function which(program: string, fallbacks: string[] = []): string {
  for (const candidate of [program, ...fallbacks]) {
    try {
      return execFileSync('sh', ['-c', `command -v ${candidate}`], { encoding: 'utf8' }).trim() || candidate;
    } catch {
      // try the next
    }
  }
  throw new Error(
    `${program} is not installed (Debian: apt-get install -y ${program === 'nats-server' ? 'nats-server' : program === 'redis-server' ? 'redis-server' : 'postgresql'})`,
  );
}

function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `clipit-fault-${label}-`));
}

function closer(proc: ManagedProcess, dir: string) {
  return async () => {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Answers true when a TCP connection to the port succeeds and the exchange says the server is up. */
function talk(port: number, send: string, expect: RegExp, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(send));
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      if (expect.test(data)) done(true);
      else if (data.includes('\n')) done(false);
    });
  });
}

/** nats-server with JetStream, its store in a folder of its own; ready when /healthz says JetStream is. */
export async function startNatsServer(): Promise<PrivateServer> {
  const [port, monitor] = (await freePorts(2)) as [number, number];
  const dir = tempDir('nats');
  const proc = new ManagedProcess({
    name: 'nats',
    command: which('nats-server'),
    args: ['-js', '-a', '127.0.0.1', '-p', String(port), '-m', String(monitor), '-sd', dir],
    ready: async () => (await fetch(`http://127.0.0.1:${monitor}/healthz?js-enabled-only=true`, { signal: AbortSignal.timeout(1000) })).ok,
  });
  await proc.start();
  return { url: `nats://127.0.0.1:${port}`, port, process: proc, dataDir: dir, close: closer(proc, dir) };
}

/** redis-server with an append-only file synced on every write, so a kill loses nothing it acknowledged. */
export async function startRedisServer(): Promise<PrivateServer> {
  const [port] = (await freePorts(1)) as [number];
  const dir = tempDir('redis');
  const proc = new ManagedProcess({
    name: 'redis',
    command: which('redis-server'),
    args: [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--maxmemory-policy',
      'noeviction',
      '--protected-mode',
      'no',
    ],
    ready: () => talk(port, 'PING\r\n', /^\+PONG/),
  });
  await proc.start();
  return { url: `redis://127.0.0.1:${port}`, port, process: proc, dataDir: dir, close: closer(proc, dir) };
}

/** The folder holding initdb and postgres: PATH first, then Debian's versioned folders. */
function postgresBin(program: 'initdb' | 'postgres'): string {
  const versions = ['18', '17', '16', '15', '14', '13'].map((v) => `/usr/lib/postgresql/${v}/bin/${program}`);
  return which(program, versions);
}

/**
 * A PostgreSQL cluster made with initdb in a temporary folder (trust auth, user `postgres`), run as
 * the `postgres` system user when the test runs as root (postgres refuses root). fsync is off: a
 * killed server keeps what it committed (the OS still has it), which is what the faults test.
 */
export async function startPostgresServer(): Promise<PrivateServer> {
  const [port] = (await freePorts(1)) as [number];
  const dir = tempDir('postgres');
  const data = join(dir, 'data');
  let ids: { uid: number; gid: number } | undefined;
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    ids = { uid, gid };
    chownSync(dir, uid, gid);
  }
  execFileSync(postgresBin('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], {
    stdio: 'pipe',
    ...(ids ?? {}),
  });
  const url = `postgres://postgres@127.0.0.1:${port}`;
  const proc = new ManagedProcess({
    name: 'postgres',
    command: postgresBin('postgres'),
    args: [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'max_connections=300',
      '-c',
      'full_page_writes=off',
    ],
    ...(ids ?? {}),
    // Fast shutdown, as `pg_ctl stop` does: SIGTERM is postgres's smart shutdown, which waits for every client
    // to leave (the consumers never do), so each stop ran out its grace and ended in a SIGKILL of the
    // postmaster; its orphaned children then held the port, and on a slow machine the restart found it taken.
    stopSignal: 'SIGINT',
    ready: async () => {
      const client = new pg.Client({ connectionString: `${url}/postgres`, connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  });
  await proc.start();
  return { url, port, process: proc, dataDir: dir, close: closer(proc, dir) };
}
