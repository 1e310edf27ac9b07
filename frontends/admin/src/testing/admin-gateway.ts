// Component tests of the admin remote: the gateway played at the network boundary. The admin calls
// carry a bearer token, so the fake is the page's own `fetch` (recording every call's method, URL, JSON
// body and Authorization header), and sessionStorage is seeded the way a verified gate leaves it.
import type { AdminSubmission, AdminSubmissionPage, ClipperApplication, PlaceholderStreamer } from '@clipit/web-api';
import { SESSION_STORAGE_KEY } from '../lib/admin-session.js';
import type { AdminCampaign } from '../lib/campaign-view.js';

export interface AdminCall {
  method: string;
  url: string;
  body: unknown;
  authorization: string | null;
}

export type Reply = { status?: number; json?: unknown; text?: string } | { networkError: true };
export type AdminHandler = (call: AdminCall) => Reply | Promise<Reply>;

const originalFetch = globalThis.fetch;

/** Replaces `fetch`; every call is recorded and `handler` answers it (404 by default). */
export function fakeAdminGateway(handler: AdminHandler = () => ({ status: 404, text: 'No such route' })) {
  const calls: AdminCall[] = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    // The admin client passes its headers as a plain object (jsdom has no Headers class).
    const headers = Object.entries((init?.headers ?? {}) as Record<string, string>);
    const raw = init?.body;
    const call: AdminCall = {
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : undefined,
      authorization: headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? null,
    };
    calls.push(call);
    const reply = await handler(call);
    if ('networkError' in reply) throw new TypeError('Failed to fetch');
    const status = reply.status ?? 200;
    const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
    // A minimal Response (jsdom has none): what the admin client reads of one.
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: '',
      body: null,
      bodyUsed: false,
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
    } as unknown as Response;
  }) as typeof fetch;
  return {
    calls,
    /** Calls other than GET, as "METHOD url". */
    writes: () => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`),
  };
}

export function restoreFetch(): void {
  globalThis.fetch = originalFetch;
}

/** A promise the test settles itself: for "while this call is pending" checks. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const TOKEN = 'v1.test-token';

/** The tab as a verified gate leaves it: the token and its end in sessionStorage. */
export function seedSession(token = TOKEN, msLeft = 60 * 60 * 1000): void {
  sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ token, expiresAt: new Date(Date.now() + msLeft).toISOString() }));
}

export function storedSession(): string | null {
  return sessionStorage.getItem(SESSION_STORAGE_KEY);
}

/** A submission as GET /api/admin/submissions lists it. */
export function aSubmission(overrides: Partial<AdminSubmission> = {}): AdminSubmission {
  return {
    id: 'sub-1',
    userId: 'user-1',
    name: 'Epic clutch',
    url: 'https://x.com/clipper/status/1234567890',
    platform: 'twitter',
    walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    additionalInfo: 'Watch the last ten seconds',
    status: 'pending',
    addedToFeed: 'false',
    rejectedReason: null,
    approvedAt: null,
    createdAt: new Date(2025, 0, 5, 15, 7).toISOString(),
    hasVideo: 'false',
    isProcessing: false,
    videoState: 'none',
    videoUrl: null,
    posterUrl: null,
    muxPlaybackId: null,
    videoRejectedReason: null,
    videoDuration: null,
    clipperHandle: 'clipqueen',
    clipperDisplayName: 'Clip Queen',
    guideChecks: null,
    matches: null,
    risk: null,
    hold: null,
    ...overrides,
  };
}

export function aPage(submissions: AdminSubmission[], extra: Partial<AdminSubmissionPage> = {}): AdminSubmissionPage {
  return { submissions, nextCursor: null, total: submissions.length, createdLast7Days: submissions.length, ...extra };
}

export function anApplication(overrides: Partial<ClipperApplication> = {}): ClipperApplication {
  return {
    id: 'app-1',
    fullName: 'Jordan Editor',
    email: 'jordan@example.com',
    socialMediaHandles: '@jordan on X, @jordan.clips on TikTok',
    availabilityHours: 25,
    experience: 'Three years of cutting gaming streams into shorts.',
    whyJoin: 'I want to clip for crypto streamers full time.',
    portfolioLinks: 'https://example.com/portfolio',
    status: 'pending',
    notes: null,
    reviewedBy: null,
    reviewedAt: null,
    createdAt: new Date(2025, 1, 3, 9, 30).toISOString(),
    updatedAt: new Date(2025, 1, 4, 10, 0).toISOString(),
    ...overrides,
  };
}

export function aPlaceholder(overrides: Partial<PlaceholderStreamer> = {}): PlaceholderStreamer {
  return {
    id: 'ph-1',
    displayName: 'Big Streamer',
    twitterUsername: 'bigstreamer',
    profileImageUrl: null,
    bannerImageUrl: null,
    streamerMultiplier: '1.50',
    claimCode: 'CLAIM-ABCD1234',
    claimedBy: null,
    claimedAt: null,
    claimedByDisplayName: null,
    claimedByHandle: null,
    createdAt: new Date(2025, 2, 1, 12, 0).toISOString(),
    ...overrides,
  };
}

/** A CPM campaign as GET /api/admin/campaigns lists it. */
export function aCampaign(overrides: Partial<AdminCampaign> = {}): AdminCampaign {
  return {
    id: 'camp-1',
    streamerId: 'streamer-1',
    streamerDisplayName: 'Big Streamer',
    streamerHandle: 'bigstreamer',
    title: 'Launch week clips',
    description: 'Clip the best moments of our launch week streams and post them on X with our token tag.',
    targetViews: 100_000,
    budgetAmount: 500,
    contentLink: 'https://x.com/bigstreamer/status/1',
    status: 'pending',
    deliveredViews: 0,
    progressPercent: 0,
    rejectedReason: null,
    reviewedBy: null,
    reviewedAt: null,
    approvedAt: null,
    completedAt: null,
    createdAt: new Date(2025, 3, 2, 14, 45).toISOString(),
    updatedAt: new Date(2025, 3, 2, 14, 45).toISOString(),
    ...overrides,
  };
}

/**
 * The admin routes with the given data (each list by default empty): a handler to extend per test.
 * Anything else answers 404.
 */
export function adminRoutes(data: {
  submissions?: AdminSubmissionPage | AdminSubmissionPage[];
  applications?: ClipperApplication[];
  placeholders?: PlaceholderStreamer[];
  campaigns?: AdminCampaign[];
}): AdminHandler {
  return (call) => {
    const path = call.url.split('?')[0];
    if (call.method === 'GET' && path === '/api/admin/submissions') {
      const pages = Array.isArray(data.submissions) ? data.submissions : [data.submissions ?? aPage([])];
      const cursor = new URL(call.url, 'http://x').searchParams.get('cursor');
      const index = cursor ? pages.findIndex((p, i) => i > 0 && pages[i - 1]!.nextCursor === cursor) : 0;
      return { json: pages[Math.max(index, 0)] };
    }
    if (call.method === 'GET' && path === '/api/clipper-applications') {
      const applications = data.applications ?? [];
      return { json: { applications, nextCursor: null, total: applications.length } };
    }
    if (call.method === 'GET' && path === '/api/admin/placeholder-streamers') return { json: data.placeholders ?? [] };
    if (call.method === 'GET' && path === '/api/admin/campaigns') {
      const status = new URL(call.url, 'http://x').searchParams.get('status');
      const campaigns = (data.campaigns ?? []).filter((c) => !status || c.status === status);
      return { json: { campaigns, nextCursor: null, total: campaigns.length } };
    }
    return { status: 404, text: 'No such route' };
  };
}
