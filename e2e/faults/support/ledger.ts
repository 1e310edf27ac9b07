// The books the fault suite balances after each outage: every event a producer committed is in the stream
// exactly once, every event a consumer subscribes to is in its inbox exactly once and its effect happened
// once, nothing is left pending (outbox rows, unacked deliveries, queued jobs, videos processing), and
// nothing went to a dead-letter stream.
import type { FaultPlatform } from '@clipit/testing';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Redis } from 'ioredis';

export interface Ledger {
  /** Events committed to an outbox: per service. */
  outboxed: Record<string, number>;
  /** Outbox rows not yet published. */
  unpublished: number;
  /** Stream messages, and ids found more than once (copies the inboxes drop; reported, not a problem). */
  streamMessages: number;
  doubledInStream: string[];
  /** Outbox event ids missing from the stream (lost between outbox and bus). */
  lostFromOutbox: string[];
  /** Per consumer: events of its types in the stream, applied (inbox rows), missing from its inbox. */
  consumers: Record<string, { inStream: number; applied: number; missing: string[]; pending: number; ackPending: number }>;
  /** Effects that happened twice: a video shown twice, a submission approved twice. */
  doubledEffects: string[];
  deadLettered: number;
  /** Applications the gateway answered 201 for: stored (once each), lost (not stored). */
  applications: { accepted: number; stored: number; lost: string[] };
  /** Follows the gateway answered 200 for: stored (once each: the pair is unique), lost (not stored). */
  follows: { accepted: number; stored: number; lost: string[] };
  /** Streamers whose live state identity mirrors differently from social's (ADR 0021), once the bus caught up. */
  liveMirror: string[];
  /** Submissions or like counts the feed's read models show differently from their owners (ADR 0022), once the bus caught up. */
  feedMismatch: string[];
  /** Approved submissions without exactly one earning in rewards (ADR 0025), once the bus caught up. */
  rewardsMismatch: string[];
  queue: { waiting: number; prioritized: number; active: number; delayed: number; failed: number };
  videosProcessing: number;
  /** Ready videos whose re-upload fingerprint (ADR 0048) never arrived: a lost fingerprint job or event. */
  videosUnfingerprinted: number;
}

interface StreamEvent {
  id: string;
  type: string;
}

/** Reads the whole stream's envelopes (ids and types), by sequence. */
async function streamEvents(
  natsUrl: string,
  stream: string,
): Promise<{ events: StreamEvent[]; consumers: Record<string, { pending: number; ackPending: number }>; dlq: number }> {
  // NATS_URL's form: one server, or a cluster's nodes comma-separated.
  const nc = await connect({ servers: natsUrl.split(','), timeout: 5000 });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream);
    const events: StreamEvent[] = [];
    if (info.state.messages > 0) {
      // An ordered consumer reads the stream in batches (one request per message took seconds per read).
      const reader = await jetstream(nc).consumers.get(stream);
      const messages = await reader.consume({ max_messages: 1000 });
      const guard = setTimeout(() => void messages.close(), 30_000);
      for await (const msg of messages) {
        const env = msg.json<{ id: string; type: string }>();
        events.push({ id: env.id, type: env.type });
        if (msg.info.streamSequence >= info.state.last_seq) break;
      }
      clearTimeout(guard);
      await messages.close();
    }
    const consumers: Record<string, { pending: number; ackPending: number }> = {};
    for await (const c of jsm.consumers.list(stream)) consumers[c.name] = { pending: c.num_pending, ackPending: c.num_ack_pending };
    const dlq = await jsm.streams.info(`${stream}_DLQ`).then(
      (i) => i.state.messages,
      () => 0,
    );
    return { events, consumers, dlq };
  } finally {
    await nc.close();
  }
}

/** The services with a database: their outbox and inbox tables. */
export async function servicesWithDatabase(p: FaultPlatform): Promise<string[]> {
  const names = [...new Set(p.processes.map((x) => x.service))];
  return names.filter((n) => {
    try {
      p.databaseUrl(n);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `acceptedApplications`: the emails of the applications the gateway answered 201 for; `acceptedFollows`:
 * the follows it answered 200 for.
 */
export async function readLedger(
  p: FaultPlatform,
  acceptedApplications: readonly string[] = [],
  acceptedFollows: readonly { followerId: string; streamerId: string }[] = [],
): Promise<Ledger> {
  const stream = p.processes[0]!.env['EVENTS_STREAM']!;
  const { events, consumers: consumerInfo, dlq } = await streamEvents(p.natsUrl, stream);
  const seen = new Map<string, number>();
  for (const e of events) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
  const ledger: Ledger = {
    outboxed: {},
    unpublished: 0,
    streamMessages: events.length,
    doubledInStream: [...seen].filter(([, n]) => n > 1).map(([id]) => id),
    lostFromOutbox: [],
    consumers: {},
    doubledEffects: [],
    deadLettered: dlq,
    applications: { accepted: acceptedApplications.length, stored: 0, lost: [] },
    follows: { accepted: acceptedFollows.length, stored: 0, lost: [] },
    liveMirror: [],
    feedMismatch: [],
    rewardsMismatch: [],
    queue: { waiting: 0, prioritized: 0, active: 0, delayed: 0, failed: 0 },
    videosProcessing: 0,
    videosUnfingerprinted: 0,
  };
  for (const service of await servicesWithDatabase(p)) {
    const rows = await p.query<{ id: string; published: boolean }>(
      service,
      'SELECT id::text, published_at IS NOT NULL AS published FROM outbox',
    );
    ledger.outboxed[service] = rows.length;
    ledger.unpublished += rows.filter((r) => !r.published).length;
    ledger.lostFromOutbox.push(...rows.filter((r) => r.published && !seen.has(r.id)).map((r) => `${service}:${r.id}`));
    const inbox = await p.query<{ consumer: string; event_id: string; type: string }>(
      service,
      'SELECT consumer, event_id::text, type FROM inbox',
    );
    const consumerNames = new Set([...inbox.map((r) => r.consumer), ...Object.keys(consumerInfo).filter((c) => c === service)]);
    for (const consumer of consumerNames) {
      const applied = new Set(inbox.filter((r) => r.consumer === consumer).map((r) => r.event_id));
      const types = new Set(inbox.filter((r) => r.consumer === consumer).map((r) => r.type));
      const relevant = events.filter((e) => types.has(e.type));
      ledger.consumers[consumer] = {
        inStream: new Set(relevant.map((e) => e.id)).size,
        applied: applied.size,
        missing: [...new Set(relevant.map((e) => e.id))].filter((id) => !applied.has(id)),
        pending: consumerInfo[consumer]?.pending ?? 0,
        ackPending: consumerInfo[consumer]?.ackPending ?? 0,
      };
    }
  }
  // Effects: a video is made ready once, a submission approved once (submissions' own outbox says so).
  const effects = await p.query<{ key: string; n: number }>(
    'submissions',
    `SELECT type || ':' || (envelope->'data'->'submission'->>'id') AS key, count(*)::int AS n FROM outbox
      WHERE (type = 'submission.video-changed' AND envelope->'data'->'submission'->>'videoState' = 'ready') OR type = 'submission.approved'
      GROUP BY 1 HAVING count(*) > 1`,
  );
  ledger.doubledEffects = effects.map((e) => `${e.key} ×${e.n}`);
  // An admin command carried out twice would show as two successful entries in admin's audit log.
  const audited = await p.query<{ key: string; n: number }>(
    'admin',
    `SELECT 'audit:' || action || ':' || target AS key, count(*)::int AS n FROM audit_entries
      WHERE result = 'ok' AND action <> 'verify-password' GROUP BY 1 HAVING count(*) > 1`,
  );
  ledger.doubledEffects.push(...audited.map((e) => `${e.key} ×${e.n}`));
  // An accepted application is stored once: none is lost, and a retried request never makes a second
  // (one pending application per email). The books of its event are the outbox's, above.
  const applications = await p.query<{ email: string; n: number }>(
    'campaigns',
    'SELECT email, count(*)::int AS n FROM clipper_applications GROUP BY email',
  );
  const storedByEmail = new Map(applications.map((a) => [a.email, a.n]));
  ledger.applications.stored = acceptedApplications.filter((e) => storedByEmail.has(e)).length;
  ledger.applications.lost = acceptedApplications.filter((e) => !storedByEmail.has(e));
  ledger.doubledEffects.push(...applications.filter((a) => a.n > 1).map((a) => `application:${a.email} ×${a.n}`));
  // An accepted follow is stored (the pair is unique, so never twice) and its social.followed event was
  // committed once; a repeated follow published nothing.
  if (acceptedFollows.length > 0) {
    const pairs = await p.query<{ pair: string }>('social', `SELECT follower_id || ':' || following_id AS pair FROM followers`);
    const stored = new Set(pairs.map((r) => r.pair));
    const keys = acceptedFollows.map((f) => `${f.followerId}:${f.streamerId}`);
    ledger.follows.stored = keys.filter((k) => stored.has(k)).length;
    ledger.follows.lost = keys.filter((k) => !stored.has(k));
  }
  const followEvents = await p.query<{ key: string; n: number }>(
    'social',
    `SELECT 'followed:' || (envelope->'data'->>'followerId') || ':' || (envelope->'data'->>'userId') AS key, count(*)::int AS n FROM outbox
      WHERE type = 'social.followed' GROUP BY 1 HAVING count(*) > 1`,
  );
  ledger.doubledEffects.push(...followEvents.map((e) => `${e.key} ×${e.n}`));
  // identity's mirror of the live state matches social's for every streamer social has a state for.
  const liveStates = await p.query<{ id: string; live: string }>(
    'social',
    `SELECT user_id::text AS id, CASE WHEN is_live THEN 'true' ELSE 'false' END AS live FROM live_states`,
  );
  if (liveStates.length > 0) {
    const mirrored = await p.query<{ id: string; live: string }>(
      'identity',
      'SELECT id::text AS id, is_live AS live FROM users WHERE id = ANY($1::uuid[])',
      [liveStates.map((s) => s.id)],
    );
    const mirror = new Map(mirrored.map((m) => [m.id, m.live]));
    ledger.liveMirror = liveStates
      .filter((s) => mirror.get(s.id) !== s.live)
      .map((s) => `${s.id}: social ${s.live}, identity ${mirror.get(s.id) ?? 'missing'}`);
  }
  // feed's read models agree with their owners: every submission's status and place in the feed, every
  // clip's like count (ADR 0022).
  const owned = await p.query<{ id: string; state: string }>(
    'submissions',
    `SELECT id::text AS id, status || ':' || added_to_feed::text AS state FROM submissions`,
  );
  const projected = new Map(
    (
      await p.query<{ id: string; state: string }>(
        'feed',
        `SELECT id::text AS id, status || ':' || added_to_feed::text AS state FROM rm.clips`,
      )
    ).map((r) => [r.id, r.state]),
  );
  ledger.feedMismatch = owned
    .filter((o) => projected.get(o.id) !== o.state)
    .map((o) => `submission ${o.id}: ${o.state}, feed ${projected.get(o.id) ?? 'missing'}`);
  const likes = await p.query<{ id: string; n: number }>(
    'social',
    'SELECT id::text AS id, like_count AS n FROM clips WHERE like_count > 0',
  );
  if (likes.length > 0) {
    const counted = new Map(
      (await p.query<{ id: string; n: number }>('feed', 'SELECT clip_id::text AS id, like_count AS n FROM rm.clip_like_counts')).map(
        (r) => [r.id, r.n],
      ),
    );
    ledger.feedMismatch.push(
      ...likes.filter((l) => counted.get(l.id) !== l.n).map((l) => `likes of ${l.id}: social ${l.n}, feed ${counted.get(l.id) ?? 'none'}`),
    );
  }
  // Each approved submission earned once in rewards: none missed, none twice (the unique submission_id
  // makes twice impossible in the table; the check says so all the same).
  const approved = owned.filter((o) => o.state.startsWith('approved:'));
  const earned = new Map(
    (
      await p.query<{ id: string; n: number }>('rewards', 'SELECT submission_id::text AS id, count(*)::int AS n FROM earnings GROUP BY 1')
    ).map((r) => [r.id, r.n]),
  );
  ledger.rewardsMismatch = approved
    .filter((a) => earned.get(a.id) !== 1)
    .map((a) => `submission ${a.id}: ${earned.get(a.id) ?? 0} earnings`);
  const processing = await p.query<{ n: number }>(
    'submissions',
    `SELECT count(*)::int AS n FROM video_uploads WHERE status = 'processing'`,
  );
  ledger.videosProcessing = processing[0]!.n;
  const unfingerprinted = await p.query<{ n: number }>(
    'submissions',
    `SELECT count(*)::int AS n FROM video_uploads WHERE status = 'ready' AND fingerprinted_at IS NULL`,
  );
  ledger.videosUnfingerprinted = unfingerprinted[0]!.n;
  const redis = new Redis(p.redis.url, { maxRetriesPerRequest: 1 });
  try {
    const prefix = `${p.processes[0]!.env['REDIS_KEY_PREFIX']}bull:media`;
    ledger.queue = {
      waiting: await redis.llen(`${prefix}:wait`),
      // Fingerprint jobs wait here (priority 10), behind every process-video job.
      prioritized: await redis.zcard(`${prefix}:prioritized`),
      active: await redis.llen(`${prefix}:active`),
      delayed: await redis.zcard(`${prefix}:delayed`),
      failed: await redis.zcard(`${prefix}:failed`),
    };
  } finally {
    redis.disconnect();
  }
  return ledger;
}

/** What is wrong with the books, in words (empty when they balance). */
export function ledgerProblems(l: Ledger): string[] {
  const problems: string[] = [];
  if (l.unpublished > 0) problems.push(`${l.unpublished} outbox rows never published`);
  if (l.lostFromOutbox.length > 0) problems.push(`${l.lostFromOutbox.length} published outbox events missing from the stream`);
  // An event stored twice (republished after JetStream's 2 min duplicate window, e.g. a re-driven verdict)
  // is not a problem in itself: the inboxes drop the copy. Applied twice is (doubledEffects, below).
  for (const [name, c] of Object.entries(l.consumers)) {
    if (c.missing.length > 0) problems.push(`${name}: ${c.missing.length} events never applied`);
    if (c.pending > 0 || c.ackPending > 0) problems.push(`${name}: ${c.pending} pending, ${c.ackPending} unacked`);
  }
  if (l.doubledEffects.length > 0) problems.push(`effects applied twice: ${l.doubledEffects.join(', ')}`);
  if (l.applications.lost.length > 0) problems.push(`${l.applications.lost.length} accepted applications not stored`);
  if (l.follows.lost.length > 0) problems.push(`${l.follows.lost.length} accepted follows not stored`);
  if (l.liveMirror.length > 0) problems.push(`identity's live state differs from social's: ${l.liveMirror.slice(0, 3).join('; ')}`);
  if (l.feedMismatch.length > 0) problems.push(`feed's read models differ from their owners: ${l.feedMismatch.slice(0, 3).join('; ')}`);
  if (l.rewardsMismatch.length > 0)
    problems.push(`rewards' earnings differ from the approvals: ${l.rewardsMismatch.slice(0, 3).join('; ')}`);
  if (l.deadLettered > 0) problems.push(`${l.deadLettered} dead-lettered events`);
  if (l.queue.waiting + l.queue.prioritized + l.queue.active + l.queue.delayed > 0)
    problems.push(`media queue not drained: ${JSON.stringify(l.queue)}`);
  if (l.videosProcessing > 0) problems.push(`${l.videosProcessing} videos still processing`);
  if (l.videosUnfingerprinted > 0) problems.push(`${l.videosUnfingerprinted} ready videos never fingerprinted`);
  return problems;
}
