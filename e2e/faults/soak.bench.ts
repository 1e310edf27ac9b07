// `npm run bench:soak`: 50 simulated people use the platform (real processes on private servers) for 5
// minutes while one fault a minute hits it, a kill and an outage in turn. Figures: requests, answers by
// class, latency p50/p99, journeys by outcome, videos lost, events lost or doubled. SOAK_USERS and
// SOAK_MINUTES change the load; SOAK_REPORT=<file> also writes the figures there.
import type { FaultPlatform } from '@clipit/testing';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { writeFile } from 'node:fs/promises';
import {
  authJourney,
  moderationJourney,
  ownSubmission,
  recordRequests,
  requestLog,
  videoJourney,
  type AdminSession,
  type JourneyResult,
} from './support/journeys.js';
import { ledgerProblems } from './support/ledger.js';
import { settle, startFaultRun, type ScenarioContext } from './support/scenario.js';

const USERS = Number(process.env['SOAK_USERS'] ?? 50);
const MINUTES = Number(process.env['SOAK_MINUTES'] ?? 5);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One a minute, in turn: a crash (SIGKILL, back after 2 s, as a supervisor restarts it) or an outage of a server. */
const FAULTS: Array<{ what: 'kill' | 'outage'; target: string; seconds: number }> = [
  { what: 'kill', target: 'submissions', seconds: 2 },
  { what: 'outage', target: 'nats', seconds: 20 },
  { what: 'kill', target: 'media-worker', seconds: 2 },
  { what: 'outage', target: 'redis', seconds: 20 },
  { what: 'kill', target: 'identity', seconds: 2 },
  { what: 'outage', target: 'postgres', seconds: 20 },
  { what: 'kill', target: 'gateway', seconds: 2 },
];

let run: Awaited<ReturnType<typeof startFaultRun>> | undefined;
let platform: FaultPlatform;
let moderation: AdminSession;
let ctx: ScenarioContext;

beforeAll(async () => {
  run = await startFaultRun({
    RATE_LIMIT_MAX_PER_IP: '1000000',
    RATE_LIMIT_MAX_PER_HANDLE: '1000000',
    SUBMISSION_LIMIT_PER_IP: '1000000',
    APPLICATION_LIMIT_PER_IP: '1000000',
    MEDIA_PROCESSING_STALE_SECONDS: '60',
    MEDIA_RECONCILE_INTERVAL_SECONDS: '10',
    LOG_LEVEL: 'warn',
  });
  ({ ctx } = run);
  ({ platform, moderation } = ctx);
}, 300_000);

afterAll(async () => {
  await run?.close();
});

function percentile(sorted: number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Once an accepted video is shown, the moderators get it (the settle at the end does the same for the rest). */
const moderated = new Set<string>();
async function showToModerators(r: JourneyResult): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    await sleep(2000);
    const view = await ownSubmission(platform.gatewayUrls[0]!, r.cookie!, r.submissionId!);
    if (view && !view.isProcessing) {
      if (view.videoState === 'ready' && !moderated.has(view.id)) {
        moderated.add(view.id);
        ctx.toModerate.push(view.id);
      }
      return;
    }
  }
}

it(`${USERS} people for ${MINUTES} minutes with a fault a minute: nothing lost or doubled`, async () => {
  const results: JourneyResult[] = [];
  const gateway = platform.gatewayUrls[0]!;
  const endAt = Date.now() + MINUTES * 60_000;
  recordRequests(true);
  // Each person: mostly signing in, some submitting videos, a few moderating; a second or so between journeys.
  const person = async (n: number) => {
    await sleep((n * 997) % 3000);
    while (Date.now() < endAt) {
      const roll = (n + results.length) % 10;
      const id = roll === 0 ? ctx.toModerate.shift() : undefined;
      if (id) results.push(await moderationJourney(moderation, id));
      else if (roll < 3) {
        const r = await videoJourney(gateway, ctx.clips[0]!);
        results.push(r);
        if (r.videoId) void showToModerators(r);
      } else results.push(await authJourney(gateway));
      await sleep(800 + ((n * 131) % 400));
    }
  };
  const faultLog: string[] = [];
  /** When a fault was on, and 10 s after: requests then are "during faults", the rest the calm baseline of the same run. */
  const windows: Array<[number, number]> = [];
  const faults = (async () => {
    for (let minute = 0; Date.now() + 30_000 < endAt; minute += 1) {
      await sleep(Math.max(0, endAt - MINUTES * 60_000 + minute * 60_000 + 30_000 - Date.now()));
      const fault = FAULTS[minute % FAULTS.length]!;
      const proc = ['nats', 'redis', 'postgres'].includes(fault.target)
        ? platform.dependency(fault.target as 'nats').process
        : platform.service(fault.target).process;
      const t0 = Date.now();
      await proc.outage(fault.seconds * 1000, 'kill');
      windows.push([t0, Date.now() + 10_000]);
      faultLog.push(`${fault.what} ${fault.target} (${fault.seconds} s down, back after ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
  })();
  await Promise.all([...Array.from({ length: USERS }, (_, n) => person(n)), faults]);
  recordRequests(false);

  const [{ n: processingAtEnd }] = (await platform.query<{ n: number }>(
    'submissions',
    `SELECT count(*)::int AS n FROM video_uploads WHERE status = 'processing'`,
  )) as [{ n: number }];
  const settleStarted = Date.now();
  const { notShown, ledger } = await settle(
    ctx,
    results.filter((r) => !r.submissionId || !moderated.has(r.submissionId) || r.kind !== 'video'),
  );
  const statuses = requestLog.map((r) => r.status);
  const ms = requestLog.map((r) => r.ms).sort((a, b) => a - b);
  const inFault = (at: number) => windows.some(([a, b]) => at >= a && at <= b);
  const calm = requestLog
    .filter((r) => !inFault(r.at))
    .map((r) => r.ms)
    .sort((a, b) => a - b);
  const faulty = requestLog
    .filter((r) => inFault(r.at))
    .map((r) => r.ms)
    .sort((a, b) => a - b);
  const byClass = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, 'no answer': 0 } as Record<string, number>;
  for (const s of statuses) byClass[s === 0 ? 'no answer' : `${Math.floor(s / 100)}xx`]! += 1;
  const journeys: Record<string, Record<string, number>> = {};
  for (const r of results) (journeys[r.kind] ??= {})[r.outcome] = (journeys[r.kind]![r.outcome] ?? 0) + 1;
  const figures = {
    users: USERS,
    minutes: MINUTES,
    faults: faultLog,
    requests: requestLog.length,
    answers: byClass,
    latencyMs: {
      all: {
        requests: ms.length,
        p50: Math.round(percentile(ms, 0.5)),
        p99: Math.round(percentile(ms, 0.99)),
        max: Math.round(ms.at(-1) ?? 0),
      },
      calm: { requests: calm.length, p50: Math.round(percentile(calm, 0.5)), p99: Math.round(percentile(calm, 0.99)) },
      duringFaults: { requests: faulty.length, p50: Math.round(percentile(faulty, 0.5)), p99: Math.round(percentile(faulty, 0.99)) },
    },
    journeys,
    videosAccepted: results.filter((r) => r.videoId).length,
    videosLost: notShown.length,
    eventsLost: Object.values(ledger.consumers).reduce((n, c) => n + c.missing.length, 0) + ledger.lostFromOutbox.length,
    eventsDoubled: ledger.doubledEffects.length,
    /** Events stored twice in the stream (republished after the 2 min duplicate window); the inboxes dropped them. */
    streamCopiesDroppedByInboxes: ledger.doubledInStream.length,
    /** What the media worker still had to do when the people stopped, and how long it took to finish. */
    backlog: { videosProcessingAtEnd: processingAtEnd, settleSeconds: Math.round((Date.now() - settleStarted) / 1000) },
    problems: [...ledgerProblems(ledger), ...notShown],
    refusals: Object.entries(
      results
        .filter((r) => r.outcome === 'refused')
        .reduce<Record<string, number>>(
          (acc, r) => ((acc[`${r.kind} at ${r.step}: ${r.detail}`] = (acc[`${r.kind} at ${r.step}: ${r.detail}`] ?? 0) + 1), acc),
          {},
        ),
    )
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8),
    failed: results
      .filter((r) => r.outcome === 'failed')
      .slice(0, 10)
      .map((r) => `${r.kind} at ${r.step}: ${r.detail}`),
  };
  process.stdout.write(`\nSoak figures:\n${JSON.stringify(figures, null, 2)}\n`);
  if (process.env['SOAK_REPORT']) await writeFile(process.env['SOAK_REPORT'], `${JSON.stringify(figures, null, 2)}\n`);
  expect({ lost: figures.videosLost + figures.eventsLost, doubled: figures.eventsDoubled, problems: figures.problems }).toEqual({
    lost: 0,
    doubled: 0,
    problems: [],
  });
}, 3_600_000);
