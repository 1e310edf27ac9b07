// What people do on the platform, as the fault suite and the soak run it: each journey is a sequence of
// requests through a gateway, and ends completed, refused (a 4xx/5xx answer with a clear text a person can
// read) or failed (no clear answer: a hang past the timeout, a stack trace, a JSON error, an unexpected
// status). Accepted videos are followed until the media worker's verdict is shown.
import { randomBytes } from 'node:crypto';

export type JourneyKind = 'auth' | 'video' | 'moderation' | 'application' | 'social';
export type Outcome = 'completed' | 'refused' | 'unreachable' | 'failed';

export interface JourneyResult {
  kind: JourneyKind;
  outcome: Outcome;
  /** The step that ended it and what was answered, for a refused or failed journey. */
  step?: string;
  detail?: string;
  startedAt: number;
  ms: number;
  /** A video accepted for processing (finalize answered 200): it must end shown. */
  videoId?: string;
  submissionId?: string;
  /** A clipper application the gateway answered 201 for: it must be stored exactly once. */
  applicationEmail?: string;
  /** A follow the gateway answered 200 for: it must be stored exactly once, its event published once. */
  follow?: { followerId: string; streamerId: string };
  cookie?: string;
  gateway?: string;
}

const REQUEST_TIMEOUT_MS = 20_000;
const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

/** A text a person can act on: short, plain, no stack, no driver error, no JSON. */
export function isClearText(contentType: string | null, body: string): boolean {
  if (!contentType?.startsWith('text/plain')) return false;
  const text = body.trim();
  if (text.length === 0 || text.length > 300) return false;
  return !/ECONN|ETIMEDOUT|EPIPE|\bat [\w.<>]+ \(|Error:|undefined|null|\{"|Internal server error/i.test(text);
}

class Stop extends Error {
  constructor(
    readonly outcome: Outcome,
    readonly step: string,
    readonly detail: string,
  ) {
    super(`${step}: ${detail}`);
  }
}

let seq = 0;
export function newHandle(): string {
  seq += 1;
  return `f${seq.toString(36)}${randomBytes(4).toString('hex')}`.slice(0, 15);
}

/** Every answer's status and time, for the soak's figures (status 0: no answer). */
export const requestLog: Array<{ status: number; ms: number; at: number }> = [];
let logging = false;
export function recordRequests(on: boolean): void {
  logging = on;
}

/**
 * The web apps' rule for a busy refusal (ADR 0044, `retryBusy` in libs/web-api): a sign-up or log-in answered
 * 503 with a Retry-After is sent again after that many seconds, at most 3 times, waits up to 60 s. The
 * simulated people do as the site does, so a refusal that the site would have ridden out is not counted.
 */
const BUSY_RETRIES = 3;
const BUSY_MAX_WAIT_SECONDS = 60;

/** One HTTP step: answers the response when its status is the one wanted, else stops the journey. */
async function step(
  gateway: string,
  name: string,
  path: string,
  init: RequestInit & { cookie?: string; traceparent?: string; retryBusy?: boolean },
  want: number,
): Promise<Response> {
  for (let retries = 0; ; retries += 1) {
    const res = await send(gateway, name, path, init);
    if (res.status === want) return res;
    const raw = res.status === 503 ? res.headers.get('retry-after')?.trim() : undefined;
    const seconds = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
    if (!init.retryBusy || retries >= BUSY_RETRIES || seconds === undefined || seconds > BUSY_MAX_WAIT_SECONDS)
      return stopUnlessWanted(res, name, want);
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** One request and its answer, whatever its status; no answer stops the journey (unreachable or failed). */
async function send(
  gateway: string,
  name: string,
  path: string,
  init: RequestInit & { cookie?: string; traceparent?: string },
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('origin', gateway);
  if (init.cookie) headers.set('cookie', init.cookie);
  // A journey a test follows carries its trace as the web app's calls do (ADR 0054).
  if (init.traceparent) headers.set('traceparent', init.traceparent);
  let res: Response;
  const t0 = performance.now();
  try {
    res = await fetch(path.startsWith('http') ? path : `${gateway}${path}`, {
      ...init,
      headers,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (logging) requestLog.push({ status: res.status, ms: performance.now() - t0, at: Date.now() });
  } catch (err) {
    if (logging) requestLog.push({ status: 0, ms: performance.now() - t0, at: Date.now() });
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    if (cause === 'ECONNREFUSED' || cause === 'ECONNRESET' || cause === 'UND_ERR_SOCKET') throw new Stop('unreachable', name, cause);
    throw new Stop('failed', name, `no answer: ${cause}`);
  }
  return res;
}

/** The answer when its status is the one wanted, else the journey stops: refused with a clear text, or failed. */
async function stopUnlessWanted(res: Response, name: string, want: number): Promise<Response> {
  if (res.status === want) return res;
  const body = await res.text();
  const clear = res.status >= 400 && isClearText(res.headers.get('content-type'), body);
  throw new Stop(clear ? 'refused' : 'failed', name, `${res.status} ${body.slice(0, 200)}`);
}

async function run(kind: JourneyKind, gateway: string, body: (r: JourneyResult) => Promise<void>): Promise<JourneyResult> {
  const r: JourneyResult = { kind, outcome: 'completed', startedAt: Date.now(), ms: 0, gateway };
  try {
    await body(r);
  } catch (err) {
    if (err instanceof Stop) Object.assign(r, { outcome: err.outcome, step: err.step, detail: err.detail });
    else Object.assign(r, { outcome: 'failed', step: 'journey', detail: String(err) });
  }
  r.ms = Date.now() - r.startedAt;
  return r;
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function signUpAs(
  gateway: string,
  handle: string,
  role: 'clipper' | 'streamer',
  traceparent?: string,
): Promise<{ cookie: string; id: string }> {
  const res = await step(
    gateway,
    `sign up (${role})`,
    '/api/auth/signup',
    {
      ...json({ email: `${handle}@example.com`, twitterHandle: handle, walletAddress: WALLET, role, password: 'a-good-password' }),
      retryBusy: true,
      traceparent,
    },
    201,
  );
  const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!sid) throw new Stop('failed', 'sign up', 'no session cookie');
  const { user } = (await res.json()) as { user: { id: string } };
  return { cookie: `clipit.sid=${sid}`, id: user.id };
}

async function signUp(gateway: string, handle: string, traceparent?: string): Promise<string> {
  return (await signUpAs(gateway, handle, 'clipper', traceparent)).cookie;
}

/** Sign up, sign in again with the password, ask who is signed in. */
export function authJourney(gateway: string): Promise<JourneyResult> {
  return run('auth', gateway, async () => {
    const handle = newHandle();
    await signUp(gateway, handle);
    const login = await step(
      gateway,
      'log in',
      '/api/auth/login',
      { ...json({ twitterHandle: handle, password: 'a-good-password' }), retryBusy: true },
      200,
    );
    const sid = /clipit\.sid=([^;]*)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    const me = await step(gateway, 'who am I', '/api/user/me', { cookie: `clipit.sid=${sid}` }, 200);
    const user = (await me.json()) as { twitterUsername?: string };
    if (user.twitterUsername !== handle) throw new Stop('failed', 'who am I', `answered ${JSON.stringify(user).slice(0, 200)}`);
  });
}

/**
 * Sign up, submit a post, send its video by the upload URL and finalize; the verdict is awaited separately.
 * `traceparent`: a trace the test follows, sent with every request of the journey.
 */
export function videoJourney(gateway: string, clip: Buffer, traceparent?: string): Promise<JourneyResult> {
  return run('video', gateway, async (r) => {
    const cookie = await signUp(gateway, newHandle(), traceparent);
    r.cookie = cookie;
    const url = `https://x.com/clipper/status/${Date.now()}${randomBytes(3).readUIntBE(0, 3)}`;
    const created = await step(
      gateway,
      'create submission',
      '/api/submissions',
      { ...json({ name: 'Fault clip', url, walletAddress: 'pending', additionalInfo: null, tokenId: null }), cookie, traceparent },
      201,
    );
    const submissionId = ((await created.json()) as { id: string }).id;
    r.submissionId = submissionId;
    const upload = await step(
      gateway,
      'upload URL',
      '/api/submissions/video-upload-url',
      { ...json({ submissionId }), cookie, traceparent },
      200,
    );
    const { uploadUrl, videoId } = (await upload.json()) as { uploadUrl: string; videoId: string };
    await step(
      gateway,
      'upload',
      uploadUrl,
      { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: new Uint8Array(clip), traceparent },
      200,
    );
    await step(
      gateway,
      'finalize',
      '/api/submissions/finalize-video-upload',
      { ...json({ submissionId, videoId }), cookie, traceparent },
      200,
    );
    r.videoId = videoId;
  });
}

/** A visitor applies to clip (no account): the gateway checks and counts, campaigns stores it with its event. */
export function applicationJourney(gateway: string): Promise<JourneyResult> {
  return run('application', gateway, async (r) => {
    const email = `${newHandle()}@example.com`;
    const body = {
      fullName: 'Fault Applicant',
      email,
      availabilityHours: 10,
      experience: 'Clipping live streams into short vertical videos for two years.',
      whyJoin: 'To be paid per approved clip while the platform is under test.',
    };
    const res = await step(gateway, 'apply', '/api/clipper-applications', json(body), 201);
    const answer = (await res.json()) as { status?: string };
    if (answer.status !== 'pending') throw new Stop('failed', 'apply', `answered ${JSON.stringify(answer).slice(0, 200)}`);
    r.applicationEmail = email;
  });
}

/**
 * A streamer and a fan sign up; the fan follows the streamer (twice: the second changes nothing); the
 * streamer goes live and the fan sees them among the followed streamers live now; the streamer goes offline.
 */
export function socialJourney(gateway: string): Promise<JourneyResult> {
  return run('social', gateway, async (r) => {
    const streamer = await signUpAs(gateway, newHandle(), 'streamer');
    const fan = await signUpAs(gateway, newHandle(), 'clipper');
    for (const attempt of ['follow', 'follow again']) {
      const res = await step(gateway, attempt, `/api/follow/${streamer.id}`, { method: 'POST', cookie: fan.cookie }, 200);
      const state = (await res.json()) as { isFollowing?: boolean; followerCount?: number };
      if (!state.isFollowing || state.followerCount !== 1) throw new Stop('failed', attempt, `answered ${JSON.stringify(state)}`);
      r.follow = { followerId: fan.id, streamerId: streamer.id };
    }
    const live = await step(gateway, 'go live', '/api/users/go-live', { method: 'POST', cookie: streamer.cookie }, 200);
    const went = (await live.json()) as { isLive?: string; notifiedFollowers?: number };
    if (went.isLive !== 'true') throw new Stop('failed', 'go live', `answered ${JSON.stringify(went)}`);
    const listed = await step(gateway, 'followed live', '/api/followers/live', { cookie: fan.cookie }, 200);
    const ids = ((await listed.json()) as { id: string }[]).map((s) => s.id);
    if (!ids.includes(streamer.id)) throw new Stop('failed', 'followed live', `the live streamer is not listed: ${JSON.stringify(ids)}`);
    await step(gateway, 'go offline', '/api/users/go-offline', { method: 'POST', cookie: streamer.cookie }, 200);
  });
}

export interface SubmissionView {
  id: string;
  isProcessing: boolean;
  videoState: string;
  hasVideo: string;
  videoUrl: string | null;
  videoRejectedReason: string | null;
  status?: string;
}

/** The owner's view of a submission (undefined while the gateway or submissions cannot answer). */
export async function ownSubmission(gateway: string, cookie: string, id: string): Promise<SubmissionView | undefined> {
  try {
    const res = await fetch(`${gateway}/api/submissions`, { headers: { cookie }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (res.status !== 200) return undefined;
    return ((await res.json()) as SubmissionView[]).find((s) => s.id === id);
  } catch {
    return undefined;
  }
}

/**
 * A moderator at the admin area: the admin token from POST /api/admin/verify-password, kept until an
 * admin call answers 401 (expired, or a restarted admin with other keys), then asked for again.
 */
export class AdminSession {
  private token: string | undefined;

  constructor(
    /** The gateways moderators reach, taken in turn. */
    private readonly gateways: () => readonly string[],
    private readonly password: string,
  ) {}

  private turn = 0;
  nextGateway(): string {
    const all = this.gateways();
    this.turn += 1;
    return all[this.turn % all.length]!;
  }

  async bearer(gateway: string): Promise<string> {
    if (this.token) return this.token;
    const res = await step(gateway, 'admin password', '/api/admin/verify-password', json({ password: this.password }), 200);
    this.token = ((await res.json()) as { token: string }).token;
    return this.token;
  }

  forget(): void {
    this.token = undefined;
  }
}

/**
 * An admin approves a submission and adds it to the feed through the admin area (one command, two events).
 * `traceparent`: a trace the test follows, sent with the approval (not with the admin password).
 */
export function moderationJourney(admin: AdminSession, submissionId: string, traceparent?: string): Promise<JourneyResult> {
  const gateway = admin.nextGateway();
  return run('moderation', gateway, async (r) => {
    r.submissionId = submissionId;
    const token = await admin.bearer(gateway);
    try {
      await step(
        gateway,
        'approve',
        `/api/admin/submissions/${submissionId}/approve-and-add-to-feed`,
        { ...json({}), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, traceparent },
        200,
      );
    } catch (err) {
      if (err instanceof Stop && err.detail.startsWith('401')) admin.forget();
      throw err;
    }
  });
}
