// One outage in the middle of the journeys, and what came of it: people keep using the platform (sign-up and
// login, submitting videos, moderators approving them) while one part is down; then the part comes back and
// every accepted video is followed until it is shown. The row it answers goes into the fault table.
import { synthesizeClip } from '@clipit/media';
import { startFaultPlatform, type FaultPlatform, type FaultPlatformOptions, type NatsNode, type TimeProfile } from '@clipit/testing';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminSession,
  applicationJourney,
  authJourney,
  moderationJourney,
  ownSubmission,
  socialJourney,
  videoJourney,
  type JourneyKind,
  type JourneyResult,
  type Outcome,
} from './journeys.js';
import { ledgerProblems, readLedger, type Ledger } from './ledger.js';
import { ApprovalThroughOutage, type TracedApprovalRow } from './traces.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The part that goes away: a private server, a service (all its processes), or `nats-node`, the node of the
 * platform's NATS cluster that leads the events stream (ADR 0054).
 */
export type Target = 'nats' | 'redis' | 'postgres' | 'nats-node' | string;

/**
 * The longest any process's readiness may say 503 when one NATS node of three goes away: a reconnection and one
 * Raft election. The node killed leads the events stream, and may lead JetStream's meta group too, which answers
 * a worker's readiness check (account info); until a new leader is elected JetStream does not answer. A follower
 * waits up to 9 s for a lost leader before it campaigns (nats-server's election timeout), a campaign takes under
 * a second, and a check waits up to 2 s for its answer: 12 s. The workers said 503 for 7.1 s in one run.
 */
export const NATS_NODE_NOT_READY_MAX_SECONDS = 12;

export interface ScenarioRow {
  target: Target;
  seconds: number;
  journeys: Record<JourneyKind, Record<Outcome, number>>;
  /** Accepted videos (finalize answered 200) never shown, plus events never applied. */
  lost: number;
  doubled: number;
  /** From the part's restart until every process's readiness says 200 again. */
  recoverySeconds: number;
  /** Per process: did readiness say the dependency was down while it was. */
  readinessDuringOutage: Record<string, string>;
  /**
   * `nats-node` only: the node killed, the events the stream took while it was away, the longest stretch
   * (seconds) each process's readiness did not say 200 (none listed: always 200), and whether the node started
   * again caught up with the stream's leader.
   */
  natsNode?: { killed: string; storedWhileAway: number; notReadySeconds: Record<string, number>; caughtUp: boolean };
  /** An approval traced through the outage (`traceApproval`): its trace, consumers and the relay's sends. */
  tracedApproval?: TracedApprovalRow;
  problems: string[];
  failures: JourneyResult[];
  ledger: Ledger;
  /** The whole scenario, load to balanced books. */
  tookSeconds: number;
}

export interface ScenarioContext {
  platform: FaultPlatform;
  /**
   * The videos people upload, in turn: one that plays as it is (the worker remuxes it) and one it must
   * transcode (4:4:4), so every outage meets both paths (ADR 0047).
   */
  clips: readonly Buffer[];
  /** Moderators at the admin area, through the gateways. */
  moderation: AdminSession;
  /** Submissions with a shown video, not yet moderated: moderators approve them during the next outage. */
  toModerate: string[];
  /** Concurrent people per journey kind (applicants: 1 unless given). */
  users?: { auth: number; video: number; application?: number; social?: number };
}

const emptyCounts = (): Record<Outcome, number> => ({ completed: 0, refused: 0, unreachable: 0, failed: 0 });

async function readinessBody(url: string): Promise<{ status: number; checks: Record<string, string> }> {
  try {
    const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(3000) });
    const body = (await res.json()) as { checks?: Record<string, string> };
    return { status: res.status, checks: body.checks ?? {} };
  } catch {
    return { status: 0, checks: {} };
  }
}

/** The readiness check names that stand for a part: a dependency's own name, or an upstream service's. */
const checkNameOf = (target: Target) => target;

/** `profile`: how long people use the platform around the outage, and how they pace their journeys. */
export async function runScenario(
  ctx: ScenarioContext,
  target: Target,
  seconds: number,
  profile: Pick<TimeProfile, 'loadBeforeMs' | 'loadAfterMs' | 'journeyPauseMs'>,
  /** `traceApproval`: one approval made while the part is away is traced, and its chain checked once it is back (ADR 0054). */
  options: { traceApproval?: boolean } = {},
): Promise<ScenarioRow> {
  const p = ctx.platform;
  const users = ctx.users ?? { auth: 2, video: 1 };
  const cluster = target === 'nats-node' ? p.natsCluster : undefined;
  if (target === 'nats-node' && !cluster)
    throw new Error('nats-node needs a platform on a NATS cluster (startFaultPlatform({ nats: "cluster" }))');
  const stream = p.processes[0]!.env['EVENTS_STREAM']!;
  const part = cluster
    ? undefined
    : ['nats', 'redis', 'postgres'].includes(target)
      ? p.dependency(target as 'nats').process
      : p.service(target).process;
  const targetProcesses = p.processes.filter((x) => x.service === target);
  const observers = p.processes.filter((x) => x.service !== target);

  // Which processes depend on the part, as their own readiness says (a check named after it).
  const baseline = new Map<string, Record<string, string>>();
  for (const o of observers) baseline.set(o.process.spec.name, (await readinessBody(o.httpUrl)).checks);

  // Its submission is kept from the moderators' loop, to be approved once the part is away.
  const traced = options.traceApproval ? await ApprovalThroughOutage.reserve(ctx) : undefined;

  const began = Date.now();
  const exitsBefore = new Map(p.processes.map((x) => [x, x.process.unexpectedExits().length]));
  const results: JourneyResult[] = [];
  let running = true;
  let stop!: () => void;
  /** Settles when the load ends: a person's pause between journeys ends with it, so no loop idles past it. */
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const gateways = p.gatewayUrls;
  let turn = 0;
  const loop = async (make: (gateway: string) => Promise<JourneyResult>) => {
    while (running) {
      turn += 1;
      results.push(await make(gateways[turn % gateways.length]!));
      await Promise.race([sleep(profile.journeyPauseMs), stopped]);
    }
  };
  const moderate = async () => {
    while (running) {
      const id = ctx.toModerate.shift();
      if (id) results.push(await moderationJourney(ctx.moderation, id));
      await sleep(500);
    }
  };
  const loops = [
    ...Array.from({ length: users.auth }, () => loop(authJourney)),
    ...Array.from({ length: users.video }, () => {
      let uploads = 0;
      return loop((g) => videoJourney(g, ctx.clips[uploads++ % ctx.clips.length]!));
    }),
    ...Array.from({ length: users.application ?? 1 }, () => loop(applicationJourney)),
    ...Array.from({ length: users.social ?? 1 }, () => loop(socialJourney)),
    moderate(),
  ];

  // Readiness while the part is down.
  const seenDown = new Map<string, string>();
  let sampling = false;
  const sampler = (async () => {
    while (running) {
      if (sampling) {
        // Every observer at once: a readiness that waits out its 2 s check would otherwise push the ones
        // after it past a short outage (with eight services, the last were asked only after it ended).
        await Promise.all(
          observers
            .filter((o) => checkNameOf(target) in (baseline.get(o.process.spec.name) ?? {}))
            .map(async (o) => {
              const now = await readinessBody(o.httpUrl);
              const check = now.checks[checkNameOf(target)];
              if (now.status === 503 || (check && check !== 'ok')) seenDown.set(o.process.spec.name, `${now.status} ${check ?? ''}`.trim());
            }),
        );
      }
      await sleep(500);
    }
  })();

  // A NATS node of three is not an outage: every process's readiness is watched from the kill to the end of
  // the load, and its longest stretch of anything but 200 kept.
  const notReadySince = new Map<string, number>();
  const notReadyMs = new Map<string, number>();
  let watching = false;
  const watcher = (async () => {
    while (cluster && running) {
      if (watching) {
        const asked = Date.now();
        const statuses = await Promise.all(p.processes.map((x) => readinessBody(x.httpUrl)));
        p.processes.forEach((x, i) => {
          const name = x.process.spec.name;
          if (statuses[i]!.status === 200) return void notReadySince.delete(name);
          const since = notReadySince.get(name) ?? asked;
          notReadySince.set(name, since);
          notReadyMs.set(name, Math.max(notReadyMs.get(name) ?? 0, Date.now() - since));
        });
      }
      await Promise.race([sleep(500), stopped]);
    }
  })();

  await sleep(profile.loadBeforeMs);
  // The part goes away: a SIGKILL, as a crash or a lost machine would (every replica of a service; of a NATS
  // cluster, the node leading the events stream, so the stream must elect another).
  const node: NatsNode | undefined = cluster ? await cluster.streamLeader(stream) : undefined;
  if (cluster && !node)
    throw new Error(`no node of the NATS cluster leads ${stream}: ${JSON.stringify(await cluster.streamViews(stream))}`);
  /** The last sequence of the events stream, as the node leading it says (undefined while none does). */
  const leadersLastSeq = async () => (await cluster?.streamViews(stream))?.find((v) => v.leader === v.node)?.state.last_seq;
  const lastSeqAtKill = node ? ((await leadersLastSeq()) ?? 0) : 0;
  if (node) await cluster!.kill(node);
  else if (targetProcesses.length > 0) await Promise.all(targetProcesses.map((x) => x.process.kill()));
  else await part!.kill();
  traced?.approve();
  watching = true;
  sampling = true;
  await sleep(seconds * 1000);
  sampling = false;
  // With its other copies the stream goes on without the node: it took events while the node was away (asked
  // for a few seconds more should an election be under way just then).
  let lastSeqAway = node ? await leadersLastSeq() : undefined;
  for (const until = Date.now() + 5000; node && lastSeqAway === undefined && Date.now() < until;) {
    await sleep(250);
    lastSeqAway = await leadersLastSeq();
  }
  const storedWhileAway = node ? (lastSeqAway ?? lastSeqAtKill) - lastSeqAtKill : 0;
  const restartedAt = Date.now();
  if (node) await cluster!.restart(node);
  else if (targetProcesses.length > 0) await Promise.all(targetProcesses.map((x) => x.process.start()));
  else await part!.start();
  const startedSeconds = (Date.now() - restartedAt) / 1000;

  // Recovery: every process ready again.
  let recoverySeconds = -1;
  let lastNotReady: string[] = [];
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const statuses = await Promise.all(p.processes.map((x) => readinessBody(x.httpUrl)));
    if (statuses.every((s) => s.status === 200)) {
      recoverySeconds = (Date.now() - restartedAt) / 1000;
      break;
    }
    lastNotReady = p.processes.flatMap((x, i) =>
      statuses[i]!.status === 200 ? [] : [`${x.process.spec.name} ${JSON.stringify(statuses[i]!.checks)}`],
    );
    await sleep(250);
  }
  await sleep(profile.loadAfterMs);
  // The load goes on until a sign-up or a video has gone through (at most 30 s more): a journey that began
  // just before the part went away is refused, so with a short load after recovery none might complete.
  for (
    const deadline = Date.now() + 30_000;
    Date.now() < deadline && !results.some((r) => (r.kind === 'auth' || r.kind === 'video') && r.outcome === 'completed');
  )
    await sleep(100);
  running = false;
  stop();
  const stoppedAt = Date.now();
  await Promise.all([...loops, sampler, watcher]);
  const settleFrom = Date.now();
  const { notShown, ledger } = await settle(ctx, results);
  // The node started again holds what the leader holds, by its own /jsz.
  const caught = node ? await cluster!.caughtUp(node, stream, 30_000) : undefined;
  const approval = await traced?.check(restartedAt);
  if (approval?.journey) results.push(approval.journey);
  if (process.env['FAULT_TRACE'])
    process.stdout.write(
      `[faults] ${target}${node ? ` (${node.name})` : ''} ${seconds}s: started ${startedSeconds}s, ready ${recoverySeconds}s (last: ${lastNotReady.join('; ')}), journeys ended ${(settleFrom - stoppedAt) / 1000}s after, settled ${(Date.now() - settleFrom) / 1000}s, whole ${(Date.now() - began) / 1000}s\n`,
    );

  const journeys = {
    auth: emptyCounts(),
    video: emptyCounts(),
    moderation: emptyCounts(),
    application: emptyCounts(),
    social: emptyCounts(),
  } as ScenarioRow['journeys'];
  for (const r of results) journeys[r.kind][r.outcome] += 1;
  const readinessDuringOutage: Record<string, string> = {};
  for (const o of observers) {
    if (!(checkNameOf(target) in (baseline.get(o.process.spec.name) ?? {}))) continue;
    readinessDuringOutage[o.process.spec.name] = seenDown.get(o.process.spec.name) ?? 'never said so';
  }
  const problems = [...ledgerProblems(ledger), ...notShown.map((s) => `accepted video never shown: ${s}`)];
  for (const [name, seen] of Object.entries(readinessDuringOutage)) {
    if (seen === 'never said so') problems.push(`${name}'s readiness never reported ${target} down`);
  }
  const crashed = p.processes.flatMap((x) =>
    x.process
      .unexpectedExits()
      .slice(exitsBefore.get(x) ?? 0)
      .map((e) => `${x.process.spec.name} exited by itself (${e.signal ?? e.code})`),
  );
  problems.push(...crashed);
  problems.push(...(approval?.problems ?? []));
  if (recoverySeconds < 0) problems.push('not every process was ready again within 120 s');
  const failures = results.filter((r) => r.outcome === 'failed' || (r.outcome === 'unreachable' && target !== 'gateway'));
  problems.push(...failures.map((f) => `${f.kind} journey failed at ${f.step}: ${f.detail}`));
  let natsNode: ScenarioRow['natsNode'];
  if (node && caught) {
    // One node of three is not an outage: nothing is refused, the stream goes on with its other copies,
    // readiness says 503 for a reconnection and an election at most, and the node that came back catches up.
    const refused = results.filter((r) => r.outcome === 'refused');
    problems.push(...refused.map((r) => `${r.kind} journey refused at ${r.step} with one NATS node of three away: ${r.detail}`));
    const notReadySeconds = Object.fromEntries([...notReadyMs].map(([name, ms]) => [name, Math.round(ms / 100) / 10]));
    for (const [name, s] of Object.entries(notReadySeconds)) {
      if (s > NATS_NODE_NOT_READY_MAX_SECONDS)
        problems.push(
          `${name}'s readiness did not say 200 for ${s} s (at most ${NATS_NODE_NOT_READY_MAX_SECONDS} s with one NATS node away)`,
        );
    }
    if (storedWhileAway <= 0) problems.push(`the events stream took nothing while ${node.name} was away: no other copy took over`);
    if (!caught.agreed)
      problems.push(
        `${node.name} did not catch up with the leader of ${stream}: ${JSON.stringify(caught.node?.state ?? null)} against ${JSON.stringify(caught.leader?.state ?? null)}`,
      );
    natsNode = { killed: node.name, storedWhileAway, notReadySeconds, caughtUp: caught.agreed };
  }
  return {
    target,
    seconds,
    journeys,
    lost:
      notShown.length +
      Object.values(ledger.consumers).reduce((n, c) => n + c.missing.length, 0) +
      ledger.lostFromOutbox.length +
      ledger.applications.lost.length +
      ledger.follows.lost.length +
      ledger.liveMirror.length,
    doubled: ledger.doubledEffects.length,
    recoverySeconds,
    readinessDuringOutage,
    ...(natsNode ? { natsNode } : {}),
    ...(approval ? { tracedApproval: approval.row } : {}),
    problems,
    failures,
    ledger,
    tookSeconds: (Date.now() - began) / 1000,
  };
}

/**
 * After the faults: every accepted video is followed until its verdict is shown (those shown go to the
 * moderators), then the books are read until they balance or 90 s pass.
 */
export async function settle(ctx: ScenarioContext, results: JourneyResult[]): Promise<{ notShown: string[]; ledger: Ledger }> {
  const p = ctx.platform;
  const gateways = p.gatewayUrls;
  const settleStarted = Date.now();
  // The media worker works through its backlog: wait while videos are processing and their number keeps
  // falling; two minutes without progress (well past the reconciler's bound in these runs) means stuck.
  let last = Number.POSITIVE_INFINITY;
  let progressAt = Date.now();
  for (const cap = Date.now() + 20 * 60_000; Date.now() < cap;) {
    const rows = await p
      .query<{ n: number }>('submissions', `SELECT count(*)::int AS n FROM video_uploads WHERE status = 'processing'`)
      .catch(() => undefined);
    const n = rows?.[0]?.n ?? last;
    if (n === 0) break;
    if (n < last) {
      last = n;
      progressAt = Date.now();
    } else if (Date.now() - progressAt > 120_000) break;
    await sleep(1000);
  }
  const backlogAt = Date.now();
  // Every accepted video is followed until its verdict is shown.
  const acceptedVideos = results.filter((r) => r.kind === 'video' && r.videoId);
  const notShown: string[] = [];
  const deadline = Date.now() + 60_000;
  for (const r of acceptedVideos) {
    let view;
    while (Date.now() < deadline) {
      view = await ownSubmission(gateways[0]!, r.cookie!, r.submissionId!);
      if (view && !view.isProcessing) break;
      await sleep(500);
    }
    if (view?.videoState === 'ready' && view.hasVideo === 'true') ctx.toModerate.push(r.submissionId!);
    else notShown.push(`${r.submissionId}: ${JSON.stringify(view ?? null).slice(0, 200)}`);
  }

  const shownAt = Date.now();
  // The books balance once the bus has caught up.
  const accepted = results.filter((r) => r.kind === 'application' && r.applicationEmail).map((r) => r.applicationEmail!);
  const follows = results.filter((r) => r.kind === 'social' && r.follow).map((r) => r.follow!);
  let ledger = await readLedger(p, accepted, follows);
  for (const deadline = Date.now() + 90_000; ledgerProblems(ledger).length > 0 && Date.now() < deadline;) {
    await sleep(1000);
    ledger = await readLedger(p, accepted, follows);
  }
  if (process.env['FAULT_TRACE'])
    process.stdout.write(
      `[faults] settle: backlog ${(backlogAt - settleStarted) / 1000}s, shown ${(shownAt - backlogAt) / 1000}s, books ${(Date.now() - shownAt) / 1000}s (${ledgerProblems(ledger).join('; ')})\n`,
    );
  return { notShown, ledger };
}

/** The fault table of the closing note, one line per outage. */
export function faultTable(rows: ScenarioRow[]): string {
  const fmt = (c: Record<Outcome, number>) =>
    `${c.completed}/${c.refused}${c.unreachable ? `/${c.unreachable}u` : ''}${c.failed ? `/${c.failed}F` : ''}`;
  const lines = [
    '| part down | for | auth (done/refused) | video | moderation | application | social | lost | doubled | copies dropped by inboxes | ready again after | scenario took |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.target}${r.natsNode ? ` (${r.natsNode.killed})` : ''} | ${r.seconds} s | ${fmt(r.journeys.auth)} | ${fmt(r.journeys.video)} | ${fmt(r.journeys.moderation)} | ${fmt(r.journeys.application)} | ${fmt(r.journeys.social)} | ${r.lost} | ${r.doubled} | ${r.ledger.doubledInStream.length} | ${r.recoverySeconds.toFixed(1)} s | ${r.tookSeconds.toFixed(0)} s |`,
    ),
  ];
  return lines.join('\n');
}

/** Moderators of a fault platform: its gateways, and the admin password its admin services run with. */
export function adminSession(platform: FaultPlatform): AdminSession {
  return new AdminSession(() => platform.gatewayUrls, platform.service('admin').env['ADMIN_PASSWORD'] ?? 'clipit-admin-dev');
}

/**
 * What the fault suite and the soak start with (the services built by their global setup,
 * libs/testing/jest/faults-global-setup.mjs): the platform up as processes on private servers with `env`, a 3 s 360x640 clip to upload, and a moderators' client. `close()` removes it all.
 */
/**
 * `passwordHash`: identity's, as {@link FaultPlatformOptions} (the outage suite's is the test platforms' cheap one);
 * `nats`: one server, or a 3-node cluster.
 */
export async function startFaultRun(
  env: Record<string, string>,
  passwordHash: FaultPlatformOptions['passwordHash'] = 'production',
  nats: FaultPlatformOptions['nats'] = 'single',
): Promise<{ ctx: ScenarioContext; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'clipit-faults-'));
  const clipPath = join(dir, 'clip.mp4');
  const transcodedPath = join(dir, 'clip-444.mp4');
  const spec = { durationSeconds: 3, width: 360, height: 640, withAudio: true, fps: 10, keyframeSeconds: 0.5 };
  await synthesizeClip({ ...spec, path: clipPath });
  await synthesizeClip({ ...spec, path: transcodedPath, video: { profile: 'high444', pixelFormat: 'yuv444p' } });
  const platform = await startFaultPlatform({ env, passwordHash, nats });
  const moderation = adminSession(platform);
  return {
    ctx: { platform, clips: [await readFile(clipPath), await readFile(transcodedPath)], moderation, toModerate: [] },
    async close() {
      await platform.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
