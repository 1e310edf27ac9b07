// Replicas: the same journeys through one process of every service and through two of each (two gateways
// taking turns, each balancing its calls over both identities and both submissions; two media workers on one
// queue; two consumers sharing submissions' durable consumer) give the same results: every journey completes,
// every video is shown once, and the stream holds the same events, each once.
//
// One video journey and one approval are traced (ADR 0054): each forms one chain across the processes, from
// the gateway to the last consumer, and with two processes of each service the calls were spread over both.
import { synthesizeClip } from '@clipit/media';
import { startFaultPlatform, TEST_PASSWORD_HASH_COST } from '@clipit/testing';
import { beforeAll, afterAll, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applicationJourney, authJourney, moderationJourney, videoJourney, type JourneyResult } from './support/journeys.js';
import { ledgerProblems } from './support/ledger.js';
import { adminSession, settle, type ScenarioContext } from './support/scenario.js';
import { approvalChain, approvalHolders, drawTrace, followTrace, KIND, orphans, processNames, videoChain } from './support/traces.js';

let dir: string;
let clip: Buffer;

beforeAll(async () => {
  // The services were built by the suite's global setup (libs/testing/jest/faults-global-setup.mjs).
  dir = await mkdtemp(join(tmpdir(), 'clipit-replicas-'));
  await synthesizeClip({
    path: join(dir, 'clip.mp4'),
    durationSeconds: 3,
    width: 360,
    height: 640,
    withAudio: true,
    fps: 10,
    keyframeSeconds: 0.5,
  });
  clip = await readFile(join(dir, 'clip.mp4'));
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * 12 sign-ups with logins, 6 videos and 4 clipper applications, 4 at a time over the gateways in turn, then
 * the shown videos approved. The last video goes alone, traced, and so does the approval of its submission.
 */
async function journeys(replicas: number) {
  const platform = await startFaultPlatform({
    replicas,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_MAX_PER_IP: '100000', SUBMISSION_LIMIT_PER_IP: '100000', APPLICATION_LIMIT_PER_IP: '100000' },
    passwordHash: 'test',
  });
  const moderation = adminSession(platform);
  const tracedVideo = platform.traces.flagTrace();
  const tracedApproval = platform.traces.flagTrace();
  const prefix = platform.processes[0]!.env['EVENTS_SUBJECT_PREFIX']!;
  let summary;
  try {
    const ctx: ScenarioContext = { platform, clips: [clip], moderation, toModerate: [] };
    const plan = [
      ...Array.from({ length: 12 }, () => 'auth' as const),
      ...Array.from({ length: 5 }, () => 'video' as const),
      ...Array.from({ length: 4 }, () => 'application' as const),
    ];
    const results: JourneyResult[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < plan.length) {
          const i = next++;
          const gateway = platform.gatewayUrls[i % platform.gatewayUrls.length]!;
          results.push(
            await (plan[i] === 'auth'
              ? authJourney(gateway)
              : plan[i] === 'video'
                ? videoJourney(gateway, clip)
                : applicationJourney(gateway)),
          );
        }
      }),
    );
    // Alone, so that a gateway's calls to submissions take turns over its processes one after the other.
    const traced = await videoJourney(platform.gatewayUrls[0]!, clip, tracedVideo.traceparent);
    results.push(traced);
    const { notShown } = await settle(ctx, results);
    for (const id of ctx.toModerate.splice(0))
      results.push(await moderationJourney(moderation, id, id === traced.submissionId ? tracedApproval.traceparent : undefined));
    const { ledger } = await settle(
      ctx,
      results.filter((r) => r.kind === 'application'),
    );
    const eventsByType: Record<string, number> = {};
    const rows = await platform.query<{ type: string; n: number }>('identity', 'SELECT type, count(*)::int AS n FROM outbox GROUP BY type');
    rows.push(
      ...(await platform.query<{ type: string; n: number }>('submissions', 'SELECT type, count(*)::int AS n FROM outbox GROUP BY type')),
    );
    rows.push(
      ...(await platform.query<{ type: string; n: number }>('campaigns', 'SELECT type, count(*)::int AS n FROM outbox GROUP BY type')),
    );
    for (const r of rows) eventsByType[r.type] = r.n;
    const outcomes: Record<string, number> = {};
    for (const r of results) outcomes[`${r.kind}:${r.outcome}`] = (outcomes[`${r.kind}:${r.outcome}`] ?? 0) + 1;
    const gatewaysUsed = new Set(results.map((r) => r.gateway).filter(Boolean)).size;
    // The cost each stored password hash was made with (`scrypt$N$…`): the test platforms' cheap one.
    const hashCosts = await platform.query<{ n: string }>(
      'identity',
      "SELECT DISTINCT split_part(password_hash, '$', 2) AS n FROM users WHERE password_hash IS NOT NULL",
    );
    const video = await followTrace(platform.traces, tracedVideo, (spans) => videoChain(spans, tracedVideo, prefix));
    const { eventId, holders } = await approvalHolders(platform, tracedApproval, prefix);
    if (process.env['FAULT_TRACE'])
      process.stdout.write(
        `[faults] the traced approval's event ${eventId} is in the inboxes of ${holders.map((h) => h.consumer).join(', ')}\n`,
      );
    const approval = await followTrace(
      platform.traces,
      tracedApproval,
      (spans) => approvalChain(spans, tracedApproval, prefix, holders).chain,
    );
    const nameOf = processNames(platform);
    // The processes whose gRPC servers answered the traced video journey's calls, by service.
    const servedBy: Record<string, string[]> = {};
    for (const s of video.spans.filter((x) => x.kind === KIND.server && x.scope.endsWith('instrumentation-grpc')))
      servedBy[s.service!] = [...new Set([...(servedBy[s.service!] ?? []), nameOf(s)])].sort();
    const drawn = drawTrace(video.spans, nameOf);
    if (process.env['FAULT_TRACE']) process.stdout.write(`[faults] ${replicas} of each: the traced video journey's trace:\n${drawn}\n`);
    summary = {
      hashCosts: hashCosts.map((r) => r.n),
      outcomes,
      eventsByType,
      // What submissions applied from the bus, by type: each once, whichever replica took it.
      submissionsApplied: Object.fromEntries(
        (
          await platform.query<{ type: string; n: number }>(
            'submissions',
            "SELECT type, count(*)::int AS n FROM inbox WHERE consumer = 'submissions' GROUP BY type ORDER BY type",
          )
        ).map((r) => [r.type, r.n]),
      ),
      submissionsMissing: ledger.consumers['submissions']?.missing.length ?? 0,
      notShown,
      problems: ledgerProblems(ledger),
      gatewaysUsed,
      processes: platform.processes.length,
      traces: {
        video: video.problems,
        approval: approval.problems,
        approvalConsumers: holders.map((h) => h.service).sort(),
        servedBy,
        drawn,
      },
    };
  } finally {
    await platform.close();
  }
  // Every process has stopped, sending its last spans as it went: still no span of either trace lacks its parent.
  const parentless = [tracedVideo, tracedApproval].flatMap((f) =>
    orphans(platform.traces.spans(f.traceId), f).map((s) => `${s.service} "${s.name}"`),
  );
  return { ...summary, traces: { ...summary.traces, parentless } };
}

it('two processes of every service give the same results as one of each', async () => {
  const one = await journeys(1);
  const two = await journeys(2);
  expect(one).toMatchObject({
    notShown: [],
    problems: [],
    outcomes: { 'auth:completed': 12, 'video:completed': 6, 'moderation:completed': 6, 'application:completed': 4 },
    // The six videos' outcomes and fingerprints; every journey uploads the same clip, so each video fingerprinted
    // after the first re-uploads an earlier one and its earning is held (ADR 0050), which submissions mirrors.
    submissionsApplied: { 'media.fingerprinted': 6, 'media.processed': 6, 'rewards.earning-held': 5 },
    submissionsMissing: 0,
    gatewaysUsed: 1,
    // identity alone runs with the cheap hash (NODE_ENV=test); every other service in production mode.
    hashCosts: [String(2 ** TEST_PASSWORD_HASH_COST)],
  });
  expect(two.gatewaysUsed).toBe(2);
  expect(two.processes).toBe(2 * one.processes);
  // Both traced journeys form whole chains (every consumer of the approval among them), with one process of
  // each service and with two; with two, the gateway's calls to submissions went to both of its processes.
  for (const { traces } of [one, two]) {
    expect(traces).toMatchObject({ video: [], approval: [], parentless: [] });
    expect(traces.approvalConsumers.length).toBeGreaterThan(0);
  }
  expect(two.traces.servedBy['submissions']).toEqual(['submissions#1', 'submissions#2']);
  const comparable = ({ outcomes, eventsByType, submissionsApplied, notShown, problems }: typeof one) => ({
    outcomes,
    eventsByType,
    submissionsApplied,
    notShown,
    problems,
  });
  expect(comparable(two)).toEqual(comparable(one));
}, 600_000);
