// The outage scenarios of the fault suite, shared by its shard files: the platform as real processes on
// private servers, and for each part of it (NATS, Redis, PostgreSQL and every service the launcher starts) a
// short and a long outage in the middle of the journeys. Afterwards every journey completed or was refused
// with a clear text, no accepted video is left unshown, no event is lost or applied twice (each consumer's
// inbox against the stream, each outbox against the stream), nothing is stuck, every process's readiness said
// 503/down while a part it needs was away and says 200 again by itself.
//
// The lengths come from the time profile (libs/testing/src/faults/time-profile.ts): compressed in `npm test`
// (the budgets scaled down, a long outage outlasting every one of them), real-time in
// `npm run test:faults:long` (the production budgets, 5 s and 60 s). Each shard file takes every n-th part on
// a platform of its own, so shards run side by side. FAULT_DURATIONS=short|long|<seconds,…> narrows the
// lengths, FAULT_TARGETS=nats,gateway the parts; FAULT_REPORT=<file> writes the table and the books.
//
// A shard may run on a 3-node NATS cluster (ADR 0054) in place of one server. Its parts then gain `nats-node`,
// at the long length only: the node leading the events stream is SIGKILLed mid-journey and started again after
// the outage. One node of three is not an outage: every journey completes, none is refused, the books
// balance, no readiness says 503 for more than a reconnection and a leader election, and the node catches up
// with the leader. The outages of the whole of NATS stay with a single-server shard.
//
// The long outage of the whole of NATS also follows one approval made while NATS is away (ADR 0054): once
// NATS is back its trace is whole, the relay's `send` starting after the outage under the same `create`, and
// each consumer's `process` after it.
import { platformServices, timeProfile } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendFile } from 'node:fs/promises';
import { faultTable, runScenario, startFaultRun, type ScenarioContext, type ScenarioRow } from './scenario.js';

/**
 * Limits that would refuse a test's many sign-ups from one address are raised; the budgets are the profile's.
 * The services run in production mode, identity with the test platforms' cheap password hash (startFaultRun).
 */
const LIMITS = {
  RATE_LIMIT_MAX_PER_IP: '100000',
  RATE_LIMIT_MAX_PER_HANDLE: '100000',
  SUBMISSION_LIMIT_PER_IP: '100000',
  APPLICATION_LIMIT_PER_IP: '100000',
  LOG_LEVEL: 'warn',
};

function durations(profile: ReturnType<typeof timeProfile>): number[] {
  const asked = process.env['FAULT_DURATIONS'];
  if (!asked) return [profile.shortOutageSeconds, profile.longOutageSeconds];
  return asked.split(',').map((d) => (d === 'short' ? profile.shortOutageSeconds : d === 'long' ? profile.longOutageSeconds : Number(d)));
}

/**
 * Parts that go to the last shard whatever their place: the first shard shares its Jest worker with the
 * replicas check (jest.faults.config.js runs the last shard first, then the replicas check and the first
 * shard one after the other), so the last shard carries more. The gateway's two outages take about 26 s.
 */
const LAST_SHARD = new Set(['gateway']);

/** The shard (1-based, of `of`) of the part at `index` of the whole list: every of-th part, but LAST_SHARD's. */
function shardOf(part: string, index: number, of: number): number {
  return of > 1 && LAST_SHARD.has(part) ? of : (index % of) + 1;
}

/**
 * Registers shard `shard` (1-based) of `of`: every of-th part, starting with the shard-th (see shardOf), on a
 * platform with one NATS server or (`nats: 'cluster'`) a 3-node cluster, whose shard also takes `nats-node`.
 */
export async function outageSuite(shard: number, of: number, options: { nats?: 'single' | 'cluster' } = {}): Promise<void> {
  const profile = timeProfile();
  const clustered = options.nats === 'cluster';
  const services = (await platformServices()).map((s) => s.name);
  // Each shard's parts are fixed by their place in the whole list, whatever FAULT_TARGETS keeps.
  const parts = ['nats', 'redis', 'postgres', ...services].filter((part, i) => shardOf(part, i, of) === shard);
  if (clustered && parts.includes('nats'))
    throw new Error(`shard ${shard} of ${of} takes the outage of the whole of NATS, which is one server's: it cannot run on a cluster`);
  const targets = [...parts, ...(clustered ? ['nats-node'] : [])].filter(
    (t) => !process.env['FAULT_TARGETS'] || process.env['FAULT_TARGETS'].split(',').includes(t),
  );
  if (targets.length === 0) {
    it.skip(`shard ${shard} of ${of}: no part of FAULT_TARGETS=${process.env['FAULT_TARGETS']} is in this shard`, () => undefined);
    return;
  }

  let run: Awaited<ReturnType<typeof startFaultRun>> | undefined;
  let ctx: ScenarioContext;
  const rows: ScenarioRow[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    run = await startFaultRun({ ...LIMITS, ...profile.env }, 'test', clustered ? 'cluster' : 'single');
    ctx = run.ctx;
    if (process.env['FAULT_TRACE'])
      process.stdout.write(`[faults] shard ${shard} of ${of}: the platform started in ${(Date.now() - t0) / 1000}s\n`);
  }, 300_000);

  afterAll(async () => {
    if (rows.length > 0) {
      const table = faultTable(rows);
      process.stdout.write(
        `\nFault table, ${profile.name} profile, shard ${shard} of ${of} (done/refused per journey kind; u = gateway unreachable, F = failed):\n${table}\n`,
      );
      if (process.env['FAULT_REPORT']) {
        const books = rows.map(({ ledger, failures, ...r }) => ({
          ...r,
          ledger: { ...ledger, consumers: ledger.consumers },
          failures: failures.slice(0, 5),
        }));
        await appendFile(process.env['FAULT_REPORT'], `${table}\n\n${JSON.stringify(books, null, 2)}\n`);
      }
    }
    // Last, as it fails when a span arrived outside the traced journeys: the table is written all the same.
    await run?.close();
  });

  describe.each(durations(profile))(`a %i s outage (${profile.name} profile) in the middle of the journeys`, (seconds) => {
    // A node of the cluster goes away at the long length only: the short one proves nothing more about it.
    const here = targets.filter((t) => t !== 'nats-node' || seconds === profile.longOutageSeconds);
    if (here.length === 0) {
      it.skip(`no part of FAULT_TARGETS=${process.env['FAULT_TARGETS']} goes away for ${seconds} s`, () => undefined);
      return;
    }
    it.each(here)(
      'of %s: every journey completes or is refused clearly; nothing lost, doubled or stuck; readiness recovers',
      async (target) => {
        const row = await runScenario(ctx, target, seconds, profile, {
          traceApproval: target === 'nats' && seconds === profile.longOutageSeconds,
        });
        rows.push(row);
        const summary = {
          target,
          seconds,
          journeys: row.journeys,
          lost: row.lost,
          doubled: row.doubled,
          recoverySeconds: row.recoverySeconds,
          readiness: row.readinessDuringOutage,
          ...(row.natsNode ? { natsNode: row.natsNode } : {}),
          ...(row.tracedApproval ? { tracedApproval: row.tracedApproval } : {}),
        };
        expect({ ...summary, problems: row.problems }).toEqual({ ...summary, problems: [] });
        // Sign-in does not depend on Redis: the rate limiter falls back to a local one (ADR 0018).
        if (target === 'redis') expect(row.journeys.auth).toMatchObject({ refused: 0, failed: 0 });
        // One NATS node of three is not an outage (ADR 0054): every journey of every kind completed.
        if (target === 'nats-node') {
          for (const counts of Object.values(row.journeys)) expect(counts).toMatchObject({ refused: 0, unreachable: 0, failed: 0 });
        }
        // Work went on: some journeys completed around the outage.
        expect(row.journeys.auth.completed + row.journeys.video.completed).toBeGreaterThan(0);
      },
    );
  });
}
