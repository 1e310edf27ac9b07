// The traces of the journeys a fault test follows (ADR 0054). Every process of the fault platform exports
// the spans of a flagged journey to the platform's OTLP receiver, and nothing else. A chain is checked link
// by link: each span found by its service, kind and name under the span the design makes its parent, and
// the trace whole, with no span whose parent is missing.
import { subjectFor, type EventType } from '@clipit/contracts';
import type { FaultPlatform, FlaggedTrace, OtlpReceiver, ReceivedSpan } from '@clipit/testing';
import { moderationJourney, ownSubmission, videoJourney, type JourneyResult } from './journeys.js';
import { ledgerProblems, readLedger, servicesWithDatabase } from './ledger.js';
import type { ScenarioContext } from './scenario.js';

/** OTLP's span kinds, by name. */
export const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** OTLP's status code of a span that failed. */
const STATUS_ERROR = 2;

/** A span a chain expects: the service that made it, its kind and name, and anything else it must show. */
export interface SpanMatch {
  service: string;
  kind: keyof typeof KIND;
  name: string;
  where?: (span: ReceivedSpan) => boolean;
}

/** A consumer that applied its event (not a duplicate, a retry or a dead letter). */
export const handled = (span: ReceivedSpan) => span.attributes['clipit.outcome'] === 'handled';

const ms = (nanos: bigint) => Number(nanos / 1000n) / 1000;

/**
 * The spans of a flagged trace whose parent is not in it. The journey's requests are the only spans whose
 * parent is the test's own span id (`flagged.parentSpanId`), which no process exports.
 */
export function orphans(spans: readonly ReceivedSpan[], flagged: FlaggedTrace): ReceivedSpan[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => s.parentSpanId === undefined || (s.parentSpanId !== flagged.parentSpanId && !ids.has(s.parentSpanId)));
}

/**
 * A trace checked against the chain a journey should form: each {@link child} call names a link, and what
 * is missing or wrong is kept in {@link problems}, in words.
 */
export class TraceChain {
  readonly problems: string[] = [];

  constructor(
    readonly spans: readonly ReceivedSpan[],
    readonly flagged: FlaggedTrace,
  ) {}

  /** Spans matching `match` whose parent is `parent` (`'test'`: the journey's request), oldest first. */
  children(parent: ReceivedSpan | 'test', match: Partial<SpanMatch>): ReceivedSpan[] {
    const parentId = parent === 'test' ? this.flagged.parentSpanId : parent.spanId;
    return this.spans.filter(
      (s) =>
        s.parentSpanId === parentId &&
        (match.service === undefined || s.service === match.service) &&
        (match.kind === undefined || s.kind === KIND[match.kind]) &&
        (match.name === undefined || s.name === match.name) &&
        (match.where === undefined || match.where(s)),
    );
  }

  /**
   * The first span matching `match` directly under `parent`; a problem when there is none. An undefined
   * parent is a link found missing already: nothing more is said about what hangs from it.
   */
  child(parent: ReceivedSpan | 'test' | undefined, match: SpanMatch): ReceivedSpan | undefined {
    if (parent === undefined) return undefined;
    const found = this.children(parent, match)[0];
    if (found) return found;
    const under = this.children(parent, {});
    const named = under.filter((s) => s.name === match.name);
    this.problems.push(
      `no ${match.kind} span "${match.name}" of ${match.service}${match.where ? ' (as the chain says)' : ''} under ${
        parent === 'test' ? "the test's traceparent" : `${parent.service} "${parent.name}"`
      }` +
        (named.length > 0
          ? `; found ${named.map((s) => `${s.service} kind ${s.kind} ${JSON.stringify(s.attributes['clipit.outcome'] ?? null)}`).join(', ')}`
          : `; under it: ${under.map((s) => `${s.service} "${s.name}"`).join(', ') || 'nothing'}`),
    );
    return undefined;
  }

  /** A problem unless `later` started at or after `earlier` did. */
  startsAfter(later: ReceivedSpan | undefined, earlier: ReceivedSpan | undefined): void {
    if (!later || !earlier || later.startTimeUnixNano >= earlier.startTimeUnixNano) return;
    this.problems.push(
      `${later.service} "${later.name}" started ${ms(earlier.startTimeUnixNano - later.startTimeUnixNano)} ms before ${earlier.service} "${earlier.name}"`,
    );
  }

  /** Every problem, with the trace's missing parents. */
  all(): string[] {
    return [
      ...this.problems,
      ...orphans(this.spans, this.flagged).map(
        (s) => `${s.service} "${s.name}": its parent ${s.parentSpanId ?? '(none)'} is not in the trace`,
      ),
    ];
  }
}

/** The calls of a gRPC method: the client span's name and the server span's are the same. */
const rpc = (service: string, method: string) => `grpc.${service}/${method}`;

/**
 * A video journey's finalize, from the gateway to the feed (ADR 0054, section 4): gateway HTTP → submissions'
 * gRPC server, which commits `submission.video-changed` (`create`) and queues the video (`send media`) →
 * the media worker's `process media` job, with ffmpeg's probe and the run that makes the web MP4 (`prepare`,
 * which remuxes a clip that plays as it is, as the fault suite's does; one that does not is transcoded),
 * and its `send` of `media.processed` → submissions' `process` of that event, a sibling of the `send` (the
 * envelope is built in the job's span) → its own `create` of `submission.video-changed`, now ready → feed's
 * `process` of it.
 */
export function videoChain(spans: readonly ReceivedSpan[], flagged: FlaggedTrace, prefix: string): TraceChain {
  const c = new TraceChain(spans, flagged);
  const subject = (type: EventType) => subjectFor(type, prefix);
  const finalize = rpc('submissions.v1.SubmissionsService', 'FinalizeVideoUpload');
  const request = c.child('test', { service: 'gateway', kind: 'server', name: 'POST /api/submissions/finalize-video-upload' });
  const call = c.child(request, { service: 'gateway', kind: 'client', name: finalize });
  const owner = c.child(call, { service: 'submissions', kind: 'server', name: finalize });
  c.child(owner, { service: 'submissions', kind: 'producer', name: `create ${subject('submission.video-changed')}` });
  const queued = c.child(owner, { service: 'submissions', kind: 'producer', name: 'send media' });
  const job = c.child(queued, {
    service: 'media-worker',
    kind: 'consumer',
    name: 'process media',
    where: (s) => s.attributes['clipit.job.name'] === 'process-video',
  });
  c.child(job, { service: 'media-worker', kind: 'internal', name: 'ffmpeg probe' });
  c.child(job, { service: 'media-worker', kind: 'internal', name: 'ffmpeg prepare' });
  const stated = c.child(job, { service: 'media-worker', kind: 'producer', name: `send ${subject('media.processed')}` });
  const applied = c.child(job, {
    service: 'submissions',
    kind: 'consumer',
    name: `process ${subject('media.processed')}`,
    where: handled,
  });
  c.startsAfter(applied, stated);
  const ready = c.child(applied, { service: 'submissions', kind: 'producer', name: `create ${subject('submission.video-changed')}` });
  c.child(ready, { service: 'submissions', kind: 'producer', name: `send ${subject('submission.video-changed')}` });
  c.child(ready, { service: 'feed', kind: 'consumer', name: `process ${subject('submission.video-changed')}`, where: handled });
  return c;
}

/** A consumer that holds an event in its inbox: the service whose database it is, and the consumer's name. */
export interface InboxHolder {
  service: string;
  consumer: string;
}

/** Every consumer whose inbox holds the event, read from each service's own database. */
export async function inboxHolders(p: FaultPlatform, eventId: string): Promise<InboxHolder[]> {
  const holders: InboxHolder[] = [];
  for (const service of await servicesWithDatabase(p)) {
    const rows = await p.query<{ consumer: string }>(service, 'SELECT consumer FROM inbox WHERE event_id = $1', [eventId]);
    holders.push(...rows.map((r) => ({ service, consumer: r.consumer })));
  }
  return holders;
}

/**
 * The consumers whose inboxes hold a traced approval's event, once every consumer of it has applied it: the
 * trace shows the relay's `send` that went through (the event is in the stream), then the books balance
 * (every durable consumer has taken and acked all the stream holds). Before that, a consumer yet to apply
 * the event would be missing from both the inboxes and the trace, and the chain would look whole without it.
 */
export async function approvalHolders(
  p: FaultPlatform,
  flagged: FlaggedTrace,
  prefix: string,
  timeoutMs = 30_000,
): Promise<{ eventId: string | undefined; holders: InboxHolder[] }> {
  const deadline = Date.now() + timeoutMs;
  const subject = subjectFor('submission.approved', prefix);
  let spans: ReceivedSpan[];
  try {
    spans = await p.traces.waitForTrace(
      flagged.traceId,
      (all) => {
        const create = all.find((s) => s.name === `create ${subject}`);
        return all.some((s) => s.parentSpanId === create?.spanId && s.name === `send ${subject}` && s.status.code !== STATUS_ERROR);
      },
      timeoutMs,
    );
  } catch {
    // Never sent: the chain's check says which link is missing.
    return { eventId: approvedEventId(p.traces.spans(flagged.traceId), prefix), holders: [] };
  }
  while (Date.now() < deadline && ledgerProblems(await readLedger(p)).length > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  const eventId = approvedEventId(spans, prefix);
  return { eventId, holders: eventId ? await inboxHolders(p, eventId) : [] };
}

/** The approved event's id, from the `create` span of a flagged approval (undefined until it arrived). */
export function approvedEventId(spans: readonly ReceivedSpan[], prefix: string): string | undefined {
  const create = spans.find((s) => s.name === `create ${subjectFor('submission.approved', prefix)}`);
  const id = create?.attributes['messaging.message.id'];
  return typeof id === 'string' ? id : undefined;
}

/** The links of an approval's chain a test goes on to check (undefined where the chain broke). */
export interface ApprovalLinks {
  chain: TraceChain;
  created?: ReceivedSpan;
  /** The relay's `send` that went through; attempts that failed (NATS away) are its siblings. */
  sent?: ReceivedSpan;
}

/**
 * An approval (ADR 0054, section 11): gateway HTTP → admin's gRPC server → submissions' gRPC server → the
 * `create` of `submission.approved` → the relay's `send` and a `process` span for every consumer whose inbox
 * holds the event (`holders`), each under the `create` and started after the `send` that went through. A
 * consumer's `process` span for the event where its inbox does not hold it is a problem too.
 */
export function approvalChain(
  spans: readonly ReceivedSpan[],
  flagged: FlaggedTrace,
  prefix: string,
  holders: readonly InboxHolder[],
): ApprovalLinks {
  const c = new TraceChain(spans, flagged);
  const subject = subjectFor('submission.approved', prefix);
  const moderate = rpc('admin.v1.AdminService', 'Moderate');
  const approve = rpc('submissions.v1.SubmissionsService', 'ApproveAndAddToFeed');
  const request = c.child('test', { service: 'gateway', kind: 'server', name: 'POST /api/admin/submissions/:id/approve-and-add-to-feed' });
  const toAdmin = c.child(request, { service: 'gateway', kind: 'client', name: moderate });
  const admin = c.child(toAdmin, { service: 'admin', kind: 'server', name: moderate });
  const toOwner = c.child(admin, { service: 'admin', kind: 'client', name: approve });
  const owner = c.child(toOwner, { service: 'submissions', kind: 'server', name: approve });
  const created = c.child(owner, { service: 'submissions', kind: 'producer', name: `create ${subject}` });
  const sent = c.child(created, {
    service: 'submissions',
    kind: 'producer',
    name: `send ${subject}`,
    where: (s) => s.status.code !== STATUS_ERROR,
  });
  if (created && holders.length === 0) c.problems.push(`no inbox holds the approved event ${approvedEventId(spans, prefix)}`);
  for (const holder of holders) {
    const span = c.child(created, {
      service: holder.service,
      kind: 'consumer',
      name: `process ${subject}`,
      where: (s) => handled(s) && s.attributes['messaging.consumer.group.name'] === holder.consumer,
    });
    c.startsAfter(span, sent);
  }
  if (created) {
    const held = new Set(holders.map((h) => `${h.service}/${h.consumer}`));
    for (const s of c.children(created, { kind: 'consumer', name: `process ${subject}` })) {
      const key = `${s.service}/${String(s.attributes['messaging.consumer.group.name'])}`;
      if (!held.has(key)) c.problems.push(`${key} processed the approved event, but its inbox does not hold it`);
    }
  }
  return { chain: c, created, sent };
}

/**
 * Waits until `check` finds nothing wrong with the flagged trace and every span's parent is in it (a
 * parent ends, and is exported, after its children), or `timeoutMs` passes: answers the spans and what is
 * still wrong.
 */
export async function followTrace(
  receiver: OtlpReceiver,
  flagged: FlaggedTrace,
  check: (spans: readonly ReceivedSpan[]) => TraceChain,
  timeoutMs = 20_000,
): Promise<{ spans: ReceivedSpan[]; problems: string[] }> {
  try {
    const spans = await receiver.waitForTrace(flagged.traceId, (s) => check(s).all().length === 0, timeoutMs);
    return { spans, problems: [] };
  } catch {
    const spans = receiver.spans(flagged.traceId);
    return { spans, problems: check(spans).all() };
  }
}

/** The process a span came from, by the pid in its `service.instance.id` (`<host>:<pid>`): `submissions#2`. */
export function processNames(p: FaultPlatform): (span: ReceivedSpan) => string {
  const byPid = new Map(p.processes.map((x) => [x.process.pid, x.process.spec.name]));
  return (span) => {
    const pid = Number(span.instance?.split(':').pop());
    return byPid.get(pid) ?? `${span.service ?? '?'}(${span.instance ?? '?'})`;
  };
}

/** Spans of the database and Redis clients: folded into a count on their parent's line when a trace is drawn. */
const isStorageCall = (s: ReceivedSpan) => /instrumentation-(pg|ioredis)$/.test(s.scope);

/**
 * The trace as an indented tree, one span a line: the process, the span's name, when it started after the
 * trace's first span and how long it took; each line's database and Redis calls counted, not listed.
 */
export function drawTrace(spans: readonly ReceivedSpan[], nameOf: (span: ReceivedSpan) => string = (s) => s.service ?? '?'): string {
  if (spans.length === 0) return '(no spans)';
  const ids = new Set(spans.map((s) => s.spanId));
  const under = new Map<string, ReceivedSpan[]>();
  for (const s of spans) {
    const key = s.parentSpanId !== undefined && ids.has(s.parentSpanId) ? s.parentSpanId : '';
    under.set(key, [...(under.get(key) ?? []), s]);
  }
  for (const list of under.values()) list.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
  const t0 = spans.reduce((min, s) => (s.startTimeUnixNano < min ? s.startTimeUnixNano : min), spans[0]!.startTimeUnixNano);
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    for (const s of (under.get(parent) ?? []).filter((x) => !isStorageCall(x))) {
      const calls = (under.get(s.spanId) ?? []).filter(isStorageCall);
      const pg = calls.filter((x) => x.scope.endsWith('pg')).length;
      const redis = calls.length - pg;
      const folded = [pg ? `${pg} pg` : '', redis ? `${redis} redis` : ''].filter(Boolean).join(', ');
      lines.push(
        `${'  '.repeat(depth)}${nameOf(s)}  ${s.name}  ${ms(s.endTimeUnixNano - s.startTimeUnixNano).toFixed(1)} ms` +
          `  (at +${ms(s.startTimeUnixNano - t0).toFixed(0)} ms${folded ? `; ${folded}` : ''}${s.status.code === STATUS_ERROR ? '; failed' : ''})`,
      );
      walk(s.spanId, depth + 1);
    }
  };
  walk('', 0);
  return lines.join('\n');
}

/** What became of the approval traced through a whole-NATS outage, for the fault table's books. */
export interface TracedApprovalRow {
  traceId: string;
  /** The consumers whose inboxes hold the approved event, each with its `process` span under the `create`. */
  consumers: string[];
  /** The relay's `send` spans that failed while NATS was away, before the one that went through. */
  failedSends: number;
  /** From NATS started again to the relay's `send` that went through. */
  sentAfterRestartMs: number | undefined;
}

/**
 * One approval traced through an outage of the whole of NATS (ADR 0054, section 11): made while NATS is
 * away, so its event waits in submissions' outbox; once NATS is back, its chain is whole, the relay's `send`
 * that went through started after NATS did, under the same `create`, and each consumer's `process` after it.
 */
export class ApprovalThroughOutage {
  private readonly flagged: FlaggedTrace;
  private approving: Promise<JourneyResult> | undefined;
  private killedAt = 0;

  private constructor(
    private readonly ctx: ScenarioContext,
    private readonly submissionId: string,
  ) {
    this.flagged = ctx.platform.traces.flagTrace();
  }

  /**
   * Keeps a submission whose video is shown from the moderators, to approve during the outage: one waiting
   * for moderation, or, when none is (the shard's first scenario), one made now.
   */
  static async reserve(ctx: ScenarioContext): Promise<ApprovalThroughOutage> {
    const waiting = ctx.toModerate.shift();
    if (waiting) return new ApprovalThroughOutage(ctx, waiting);
    const gateway = ctx.platform.gatewayUrls[0]!;
    const video = await videoJourney(gateway, ctx.clips[0]!);
    for (const deadline = Date.now() + 60_000; video.outcome === 'completed' && Date.now() < deadline;) {
      const view = await ownSubmission(gateway, video.cookie!, video.submissionId!);
      if (view && !view.isProcessing) {
        if (view.videoState === 'ready') return new ApprovalThroughOutage(ctx, video.submissionId!);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no shown video to approve during the NATS outage: ${JSON.stringify({ ...video, cookie: undefined })}`);
  }

  /** NATS is away: the moderator approves, the request carrying the trace. */
  approve(): void {
    this.killedAt = Date.now();
    this.approving = moderationJourney(this.ctx.moderation, this.submissionId, this.flagged.traceparent);
  }

  /**
   * After the books balanced (so every consumer's inbox holds the event): the approval's journey, its row
   * and what is wrong with its chain. `restartedAt`: when NATS was started again.
   */
  async check(restartedAt: number): Promise<{ journey: JourneyResult | undefined; row: TracedApprovalRow; problems: string[] }> {
    const p = this.ctx.platform;
    const prefix = p.processes[0]!.env['EVENTS_SUBJECT_PREFIX']!;
    const journey = await this.approving;
    const problems: string[] = [];
    if (!journey) problems.push('the traced approval was never sent');
    else if (journey.outcome !== 'completed')
      problems.push(`the traced approval ended ${journey.outcome} at ${journey.step}: ${journey.detail}`);
    else if (journey.startedAt + journey.ms >= restartedAt) problems.push('the traced approval was answered only after NATS was back');
    const { holders } = await approvalHolders(p, this.flagged, prefix);
    const { spans, problems: chainProblems } = await followTrace(
      p.traces,
      this.flagged,
      (s) => approvalChain(s, this.flagged, prefix, holders).chain,
    );
    problems.push(...chainProblems);
    const { created, sent } = approvalChain(spans, this.flagged, prefix, holders);
    const nanos = (at: number) => BigInt(at) * 1_000_000n;
    if (created && created.startTimeUnixNano < nanos(this.killedAt)) problems.push('the approved event was created before NATS went away');
    if (sent && sent.startTimeUnixNano < nanos(restartedAt))
      problems.push(
        `the relay's send that went through started ${ms(nanos(restartedAt) - sent.startTimeUnixNano)} ms before NATS was back`,
      );
    const failedSends = created
      ? spans.filter((s) => s.parentSpanId === created.spanId && s.kind === KIND.producer && s.status.code === STATUS_ERROR).length
      : 0;
    const row = {
      traceId: this.flagged.traceId,
      consumers: holders.map((h) => h.service).sort(),
      failedSends,
      sentAfterRestartMs: sent ? ms(sent.startTimeUnixNano - nanos(restartedAt)) : undefined,
    };
    const drawn = drawTrace(spans, processNames(p));
    if (problems.length > 0) problems.push(`the traced approval's trace:\n${drawn}`);
    if (process.env['FAULT_TRACE'])
      process.stdout.write(`[faults] the approval traced through the NATS outage: ${JSON.stringify(row)}\n${drawn}\n`);
    return { journey, row, problems };
  }
}
