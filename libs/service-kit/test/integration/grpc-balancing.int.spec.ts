import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { status } from '@grpc/grpc-js';
import { waitFor } from '@clipit/testing';
import type { Observable } from 'rxjs';
import { createGrpcClient, GrpcCallError, type GrpcClient } from '../../src/grpc/client.js';

// ADR 0054 §6: one client, one `ipv4:` target naming two replica processes; grpc-js's round_robin sends each
// call to the next ready replica, and the retry policy the contract allows (reads only) sends a call whose
// replica died to the other.

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/grpc-replica.mjs', import.meta.url));
const proto = fileURLToPath(new URL('../fixtures/balancing.proto', import.meta.url));

interface Reply {
  replica: string;
}
interface BalancingService {
  which(request: object): Observable<Reply>;
  refuse(request: { id: string; withoutPushback?: boolean }): Observable<Reply>;
  record(request: { id: string; holdOn?: string }): Observable<Reply>;
}

interface Replica {
  name: string;
  port: number;
  child: ChildProcess;
  /** Every line it printed: `READY <port>`, then one per Refuse or Record handler run. */
  lines: string[];
}

const CONCURRENCY = 20;

describe('gRPC calls balanced per call over two replica processes', () => {
  const started: Replica[] = [];
  let a: Replica;
  let b: Replica;
  let client: GrpcClient<BalancingService>;

  async function startReplica(name: string, port = 0): Promise<Replica> {
    const child = spawn(process.execPath, [fixture], {
      cwd: root,
      env: { ...process.env, REPLICA: name, PORT: String(port) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const replica: Replica = { name, port, child, lines: [] };
    started.push(replica);
    createInterface({ input: child.stdout! }).on('line', (line) => replica.lines.push(line));
    const ready = await waitFor(() => replica.lines.find((l) => l.startsWith('READY ')), 10_000, `replica ${name} listening`);
    replica.port = Number(ready.slice('READY '.length));
    return replica;
  }

  let pings = 0;
  /**
   * How many times `replicas` ran a handler for `call` (`RECORD <id>`, `REFUSE <id>`): each is asked for a
   * PONG first, so every line it printed before is read. A killed replica's count is what it printed.
   */
  async function runs(call: string, ...replicas: Replica[]): Promise<number> {
    await Promise.all(
      replicas
        .filter((r) => !r.child.killed && r.child.exitCode === null)
        .map((r) => {
          const ping = ++pings;
          r.child.stdin!.write(`PING ${ping}\n`);
          return waitFor(() => r.lines.includes(`PONG ${ping}`) || undefined, 5000, `replica ${r.name} answering PING`);
        }),
    );
    return replicas.reduce((n, r) => n + r.lines.filter((l) => l === call).length, 0);
  }

  /** Calls `from` to `to` of the read, CONCURRENCY at a time: each call's replica, or why it failed. */
  async function load(from: number, to: number, beforeCall?: (n: number) => void): Promise<Map<number, string>> {
    const answers = new Map<number, string>();
    let next = from;
    const worker = async () => {
      while (next <= to) {
        const n = next++;
        beforeCall?.(n);
        try {
          answers.set(n, (await client.which({})).replica);
        } catch (err) {
          answers.set(n, `failed: ${err instanceof GrpcCallError ? status[err.code] : String(err)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return answers;
  }

  /** The share of `answers` that `replica` gave. */
  const share = (answers: Map<number, string>, replica: string) => [...answers.values()].filter((r) => r === replica).length / answers.size;
  const failures = (answers: Map<number, string>) => [...answers].filter(([, r]) => r.startsWith('failed'));

  beforeAll(async () => {
    // The replicas answer a refusal as the kit's servers do, from the built kit.
    execFileSync(process.execPath, [`${root}node_modules/typescript-native/bin/tsc`, '-b', `${root}libs/service-kit`], {
      stdio: 'inherit',
    });
    [a, b] = await Promise.all([startReplica('a'), startReplica('b')]);
    client = createGrpcClient<BalancingService>({
      url: `ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`,
      packageName: 'balancing.v1',
      serviceName: 'BalancingService',
      protoFile: proto,
      // The held command must outlive the 1,000 calls before the kill (seconds on a starved machine), or it ends
      // DEADLINE_EXCEEDED before its replica dies.
      deadlineMs: 30_000,
    });
    await client.ready(5000);
  });

  afterAll(() => {
    client?.close();
    for (const r of started) r.child.kill('SIGKILL');
  });

  it('spreads reads evenly, loses none when a replica is killed under load, and takes it back when it returns', async () => {
    // A command under way on B when B dies: round robin sends every other call to B, so one of the first two lands there.
    let held: { id: string; answer: Promise<Reply | GrpcCallError> } | undefined;
    for (let k = 1; !held && k <= 4; k++) {
      const id = `command-${k}`;
      let settled = false;
      const answer = client.record({ id, holdOn: 'b' }).then(
        (reply) => reply,
        (err: GrpcCallError) => err,
      );
      void answer.finally(() => (settled = true));
      const landed = await waitFor(
        () => (b.lines.includes(`RECORD ${id}`) ? 'b' : settled ? 'a' : undefined),
        2000,
        `command ${id} handled`,
      );
      if (landed === 'b') held = { id, answer };
    }
    expect(held).toBeDefined();

    // Calls 1 to 2,000; B is SIGKILLed as call 1,000 starts, with about ten reads and the command under way on it.
    const first = await load(1, 2000, (n) => {
      if (n === 1000) b.child.kill('SIGKILL');
    });
    expect(b.child.killed).toBe(true);
    const beforeKill = new Map([...first].filter(([n]) => n < 1000));
    expect(failures(first)).toEqual([]);
    expect(share(beforeKill, 'a')).toBeGreaterThanOrEqual(0.4);
    expect(share(beforeKill, 'b')).toBeGreaterThanOrEqual(0.4);

    // The command was not sent again: it failed where it ran, and A never ran it.
    const outcome = await held!.answer;
    expect(outcome).toBeInstanceOf(GrpcCallError);
    expect((outcome as GrpcCallError).code).toBe(status.UNAVAILABLE);
    expect(await runs(`RECORD ${held!.id}`, b)).toBe(1);
    expect(await runs(`RECORD ${held!.id}`, a)).toBe(0);

    // B starts again on its port. Calls from 2,001 go on, paced while the client reconnects (its backoff is
    // 250 ms to 2 s) until B answers one, then at full load to 3,000.
    b = await startReplica('b', b.port);
    const rejoining: string[] = [];
    while (rejoining.at(-1) !== 'b' && rejoining.length < 500) {
      rejoining.push((await client.which({})).replica);
      await sleep(10);
    }
    expect(rejoining.at(-1)).toBe('b');
    const rest = await load(2001 + rejoining.length, 3000);
    expect(failures(rest)).toEqual([]);

    // Calls 3,001 to 4,000 spread within ±20 % again.
    const last = await load(3001, 4000);
    expect(failures(last)).toEqual([]);
    expect(share(last, 'a')).toBeGreaterThanOrEqual(0.4);
    expect(share(last, 'b')).toBeGreaterThanOrEqual(0.4);
    expect(await runs(`RECORD ${held!.id}`, b)).toBe(0);
    const percent = (answers: Map<number, string>, replica: string) => `${(100 * share(answers, replica)).toFixed(1)} %`;
    console.log(
      `calls 1-999: A ${percent(beforeKill, 'a')}, B ${percent(beforeKill, 'b')}; ` +
        `calls 1,000-2,000 with B killed at 1,000: ${failures(first).length} failed; ` +
        `calls 3,001-4,000 after B returned: A ${percent(last, 'a')}, B ${percent(last, 'b')}`,
    );
  });

  it('never retries an UNAVAILABLE a replica answers on purpose (grpc-retry-pushback-ms: -1)', async () => {
    // Without the kit's trailer the same refusal of a read is tried three times over the replicas (the
    // policy's attempts), so the trailer is what stops it.
    const bare = client.refuse({ id: 'bare', withoutPushback: true });
    await expect(bare).rejects.toMatchObject({ code: status.UNAVAILABLE });
    expect(await runs('REFUSE bare', a, b)).toBe(3);

    for (const id of ['busy-1', 'busy-2', 'busy-3']) {
      const refused = client.refuse({ id });
      await expect(refused).rejects.toMatchObject({ code: status.UNAVAILABLE, fromDomain: true, retryAfterSeconds: 2 });
      expect(await runs(`REFUSE ${id}`, a, b)).toBe(1);
    }
  });
});
