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

/** One node of a {@link NatsCluster}: its server name (as /jsz names it), its ports and its own JetStream store. */
export interface NatsNode {
  /** `clipit-nats-<i>`, 1-based: the name the cluster's /jsz gives leaders and replicas. */
  name: string;
  url: string;
  port: number;
  /** Its monitoring endpoint, e.g. `http://127.0.0.1:41235`. */
  monitorUrl: string;
  process: ManagedProcess;
  dataDir: string;
}

/** A stream's state as one node's /jsz reports it. */
export interface NatsStreamState {
  messages: number;
  bytes: number;
  first_seq: number;
  last_seq: number;
  consumer_count: number;
}

/** What one node's /jsz says of a stream: the leader it knows, and its own copy's state. */
export interface NatsStreamView {
  node: string;
  leader: string | undefined;
  state: NatsStreamState;
}

/**
 * A JetStream cluster of nats-server processes on this machine, each with its store in a folder of its own
 * and routes to the others. Any node can be SIGKILLed and started again on the same ports and store, as a
 * lost machine that comes back would be; `close()` stops them all and removes their stores.
 */
export interface NatsCluster {
  /** Every node's URL, comma-separated: NATS_URL for the cluster. */
  url: string;
  nodes: NatsNode[];
  /** The cluster's meta leader, as the running nodes' /jsz name it (undefined while they agree on none). */
  metaLeader(): Promise<string | undefined>;
  /** What each running node's /jsz says of `stream` (the nodes that do not hold a copy are left out). */
  streamViews(stream: string): Promise<NatsStreamView[]>;
  /** The node leading `stream`: the running node whose own /jsz names itself its leader. */
  streamLeader(stream: string): Promise<NatsNode | undefined>;
  /** SIGKILL: the node dies in the middle of whatever it was doing. */
  kill(node: NatsNode): Promise<void>;
  /** Starts a killed node again on its ports and store; answers once it serves and knows the meta leader. */
  restart(node: NatsNode): Promise<void>;
  /**
   * Waits until `node`'s copy of `stream` in its /jsz holds what the leader's does (messages, first and last
   * sequence; a node elected leader again is current by the election's rule). Answers both views from the
   * last look and whether they agreed within `timeoutMs`.
   */
  caughtUp(
    node: NatsNode,
    stream: string,
    timeoutMs?: number,
  ): Promise<{ agreed: boolean; node?: NatsStreamView | undefined; leader?: NatsStreamView | undefined }>;
  close(): Promise<void>;
}

interface JszStreamDetail {
  name: string;
  cluster?: { leader?: string };
  state: NatsStreamState;
}
interface Jsz {
  meta_cluster?: { leader?: string };
  account_details?: Array<{ stream_detail?: JszStreamDetail[] }>;
}

async function jsz(node: NatsNode, query = ''): Promise<Jsz | undefined> {
  if (node.process.state !== 'running') return undefined;
  try {
    const res = await fetch(`${node.monitorUrl}/jsz${query}`, { signal: AbortSignal.timeout(2000) });
    return res.ok ? ((await res.json()) as Jsz) : undefined;
  } catch {
    return undefined;
  }
}

/** A node's meta leader when it knows one. */
async function metaLeaderSeenBy(node: NatsNode): Promise<string | undefined> {
  return (await jsz(node))?.meta_cluster?.leader || undefined;
}

/**
 * `size` nats-server processes (v2.9's flags) forming the JetStream cluster `clipit`, each routed to all the
 * others. A node is up when its /healthz says JetStream is; the cluster, when every node's /jsz names the
 * same meta leader (before that, no stream can be made).
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const ports = await freePorts(size * 3);
  const specs = Array.from({ length: size }, (_, i) => ({
    name: `clipit-nats-${i + 1}`,
    port: ports[i * 3]!,
    monitor: ports[i * 3 + 1]!,
    route: ports[i * 3 + 2]!,
  }));
  const root = tempDir('nats-cluster');
  const nodes: NatsNode[] = specs.map((spec) => {
    const dataDir = join(root, spec.name);
    const routes = specs.filter((other) => other !== spec).map((other) => `nats://127.0.0.1:${other.route}`);
    const monitorUrl = `http://127.0.0.1:${spec.monitor}`;
    return {
      name: spec.name,
      url: `nats://127.0.0.1:${spec.port}`,
      port: spec.port,
      monitorUrl,
      dataDir,
      process: new ManagedProcess({
        name: spec.name,
        command: which('nats-server'),
        // prettier-ignore
        args: [
          '-js', '-a', '127.0.0.1', '-p', String(spec.port), '-m', String(spec.monitor), '-sd', dataDir, '-n', spec.name,
          '--cluster_name', 'clipit', '--cluster', `nats://127.0.0.1:${spec.route}`, '--routes', routes.join(','),
        ],
        ready: async () => (await fetch(`${monitorUrl}/healthz?js-enabled-only=true`, { signal: AbortSignal.timeout(1000) })).ok,
      }),
    };
  });
  const running = () => nodes.filter((n) => n.process.state === 'running');
  /** Until every running node names the same meta leader. */
  const agreeOnMetaLeader = async (timeoutMs = 30_000) => {
    for (const deadline = Date.now() + timeoutMs; ;) {
      const seen = await Promise.all(running().map(metaLeaderSeenBy));
      if (seen.length > 0 && seen[0] && seen.every((l) => l === seen[0])) return seen[0];
      if (Date.now() > deadline)
        throw new Error(`the NATS cluster's nodes named no common meta leader within ${timeoutMs} ms: ${JSON.stringify(seen)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const close = async () => {
    await Promise.all(nodes.map((n) => n.process.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  const streamViews = async (stream: string): Promise<NatsStreamView[]> => {
    const views = await Promise.all(
      running().map(async (node) => {
        const detail = (await jsz(node, '?streams=true'))?.account_details
          ?.flatMap((a) => a.stream_detail ?? [])
          .find((d) => d.name === stream);
        return detail ? { node: node.name, leader: detail.cluster?.leader || undefined, state: detail.state } : undefined;
      }),
    );
    return views.filter((v): v is NatsStreamView => v !== undefined);
  };
  try {
    await Promise.all(nodes.map((n) => n.process.start()));
    await agreeOnMetaLeader();
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url: nodes.map((n) => n.url).join(','),
    nodes,
    async metaLeader() {
      const seen = await Promise.all(running().map(metaLeaderSeenBy));
      return seen[0] && seen.every((l) => l === seen[0]) ? seen[0] : undefined;
    },
    streamViews,
    async streamLeader(stream) {
      const views = await streamViews(stream);
      const own = views.find((v) => v.leader === v.node);
      return own ? nodes.find((n) => n.name === own.node) : undefined;
    },
    kill: (node) => node.process.kill(),
    async restart(node) {
      await node.process.start();
      await agreeOnMetaLeader();
    },
    async caughtUp(node, stream, timeoutMs = 30_000) {
      const same = (a: NatsStreamState, b: NatsStreamState) =>
        a.messages === b.messages && a.first_seq === b.first_seq && a.last_seq === b.last_seq;
      let mine: NatsStreamView | undefined;
      let leader: NatsStreamView | undefined;
      for (const deadline = Date.now() + timeoutMs; ;) {
        const views = await streamViews(stream);
        mine = views.find((v) => v.node === node.name);
        leader = views.find((v) => v.leader === v.node);
        if (mine && leader && same(mine.state, leader.state)) return { agreed: true, node: mine, leader };
        if (Date.now() > deadline) return { agreed: false, node: mine, leader };
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    close,
  };
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
    group: true,
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
