// Read-your-writes through the gateway (ADR 0043): the writer's very next read shows the write, though the
// read models are fed by events. Each trial writes through one gateway and reads through another, as a
// browser whose requests land on two replicas: the browser's own `clipit.rw` cookie is all that carries the
// write to the read, nothing of the replica that took it. A read that does not show its write, or that the
// gateway marks `Clipit-Stale`, counts as stale; every kind must have none in RYW_TRIALS (1,000) trials.
// The five kinds run one after another, each with accounts of its own.
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayApp } from '../services/gateway/src/app.js';
import { E2E_PASSWORD, E2E_WALLET, publishFeedClips, signUp, type Account } from './support/accounts.js';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';

const TRIALS = Number(process.env['RYW_TRIALS'] ?? 1000);
// Even and a multiple of the three clips: the warm-up leaves every follow and like as it found it.
const WARM_UP_TRIALS = 12;
const PAGE = '/api/feed/clips?limit=10';
const OTHER_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
/** Limits that would refuse a thousand writes of one account: lifted for this run only. */
const NO_LIMITS = {
  RATE_LIMIT_MAX_PER_IP: 1_000_000,
  RATE_LIMIT_MAX_PER_HANDLE: 1_000_000,
  SUBMISSION_LIMIT_PER_USER: 1_000_000,
  SUBMISSION_LIMIT_PER_IP: 1_000_000,
};

interface Answer {
  status: number;
  stale: boolean;
  body: unknown;
  ms: number;
}

/** A browser: its cookies (the session's and `clipit.rw`) kept from every answer and sent with every request. */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(account: Account) {
    const [name, value] = account.cookie.split('=') as [string, string];
    this.cookies.set(name, value);
  }

  async send(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
    const started = performance.now();
    const res = await fetch(
      ...asOurPage(base, path, {
        method,
        headers: {
          cookie: [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; '),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair!.trim().split('=') as [string, string];
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const json = res.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as unknown) : text;
    return { status: res.status, stale: res.headers.get('clipit-stale') === '1', body: json, ms: performance.now() - started };
  }
}

/** What a kind's trials found: stale reads (with what each saw, the first few kept) and the reads' times. */
class Tally {
  stale = 0;
  readonly examples: string[] = [];
  readonly readMs: number[] = [];

  read(answer: Answer, shows: boolean, what: string): void {
    expect(answer.status).toBe(200);
    this.readMs.push(answer.ms);
    if (shows && !answer.stale) return;
    this.stale += 1;
    if (this.examples.length < 5)
      this.examples.push(`${what}${answer.stale ? ' (Clipit-Stale)' : ''}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }

  get p99(): number {
    const sorted = [...this.readMs].sort((a, b) => a - b);
    return Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0);
  }
}

describe('read-your-writes (gateway ×2 + identity + submissions + social + feed + rewards)', () => {
  let p: Platform;
  let reader: GatewayApp;
  let clips: string[];
  let streamer: Account;

  beforeAll(async () => {
    p = await startPlatform(NO_LIMITS);
    reader = await p.startGateway(NO_LIMITS);
    const owner = await signUp(p.url, { prefix: 'rw' });
    streamer = await signUp(p.url, { prefix: 'rws', role: 'streamer' });
    clips = await publishFeedClips(p.names.subjectPrefix, owner, 3, 'RYW clip');
    await waitFor(
      async () => {
        const res = await fetch(...asOurPage(p.url, PAGE));
        const ids = ((await res.json()) as { submissions: Array<{ id: string }> }).submissions.map((c) => c.id);
        const social = await p.socialDb.query('SELECT count(*)::int AS n FROM clips WHERE id = ANY($1)', [clips]);
        return clips.every((id) => ids.includes(id)) && social.rows[0]?.['n'] === 3 ? true : undefined;
      },
      20_000,
      'the clips in the feed and in social',
    );
  }, 120_000);
  afterAll(async () => {
    await reader?.close();
    await p?.stop();
  });

  const write = async (browser: Browser, method: string, path: string, body?: unknown): Promise<Answer> => {
    const answer = await browser.send(p.url, method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer;
  };
  const read = (browser: Browser, path: string) => browser.send(reader.httpUrl, 'GET', path);

  /** submit → the dashboard's recent submissions. */
  async function submitThenDashboard(trials = TRIALS): Promise<Tally> {
    const account = await signUp(p.url, { prefix: 'rwa' });
    const browser = new Browser(account);
    const tally = new Tally();
    for (let i = 0; i < trials; i += 1) {
      const created = await write(browser, 'POST', '/api/submissions', {
        name: `Trial ${i}`,
        url: `https://x.com/${account.handle}/status/${Date.now()}${String(i).padStart(4, '0')}`,
        walletAddress: '',
      });
      const id = (created.body as { id: string }).id;
      const dashboard = await read(browser, '/api/dashboard');
      const recent = (dashboard.body as { recentSubmissions?: Array<{ id: string }> }).recentSubmissions ?? [];
      tally.read(
        dashboard,
        recent.some((s) => s.id === id),
        `submission ${i} missing from the dashboard`,
      );
    }
    return tally;
  }

  /** like and unlike → the feed page: the reader's mark and the clip's count. */
  async function likeThenFeed(trials = TRIALS): Promise<Tally> {
    const browser = new Browser(await signUp(p.url, { prefix: 'rwl' }));
    const tally = new Tally();
    const liked = new Set<string>();
    for (let i = 0; i < trials; i += 1) {
      const clip = clips[i % clips.length]!;
      const likes = !liked.has(clip);
      await write(browser, likes ? 'POST' : 'DELETE', `/api/feed/clips/${clip}/like`);
      if (likes) liked.add(clip);
      else liked.delete(clip);
      const page = await read(browser, PAGE);
      const shown = (page.body as { submissions: Array<{ id: string; likedByCurrentUser: boolean; likeCount: number }> }).submissions.find(
        (c) => c.id === clip,
      );
      tally.read(
        page,
        shown?.likedByCurrentUser === likes && shown.likeCount === (likes ? 1 : 0),
        `${likes ? 'like' : 'unlike'} ${i} not on the feed page`,
      );
    }
    return tally;
  }

  /** follow and unfollow → whether I follow them, and their follower count. */
  async function followThenFollowing(trials = TRIALS): Promise<Tally> {
    const browser = new Browser(await signUp(p.url, { prefix: 'rwf' }));
    const tally = new Tally();
    for (let i = 0; i < trials; i += 1) {
      const follows = i % 2 === 0;
      await write(browser, 'POST', `/api/${follows ? 'follow' : 'unfollow'}/${streamer.id}`);
      const following = await read(browser, `/api/following/${streamer.id}`);
      tally.read(
        following,
        (following.body as { isFollowing: boolean }).isFollowing === follows,
        `${follows ? 'follow' : 'unfollow'} ${i}: following`,
      );
      const followers = await read(browser, `/api/followers/${streamer.id}`);
      tally.read(
        followers,
        (followers.body as { count: number }).count === (follows ? 1 : 0),
        `${follows ? 'follow' : 'unfollow'} ${i}: followers`,
      );
    }
    return tally;
  }

  /** stream time, go-live and go-offline → /api/user/me and the dashboard's user. */
  async function streamThenMe(trials = TRIALS): Promise<Tally> {
    const browser = new Browser(await signUp(p.url, { prefix: 'rwt', role: 'streamer' }));
    const tally = new Tally();
    let live = false;
    let streamTime: string | null = null;
    const start = Date.now() + 86_400_000;
    for (let i = 0; i < trials; i += 1) {
      if (i % 2 === 0) {
        streamTime = new Date(start + i * 60_000).toISOString();
        await write(browser, 'PATCH', '/api/users/stream-time', { streamTime });
      } else {
        live = !live;
        await write(browser, 'POST', live ? '/api/users/go-live' : '/api/users/go-offline');
      }
      const shows = (user: { nextStreamTime: string | null; isLive: string } | undefined) =>
        user !== undefined &&
        user.isLive === String(live) &&
        user.nextStreamTime !== null &&
        Date.parse(user.nextStreamTime) === Date.parse(streamTime!);
      const me = await read(browser, '/api/user/me');
      tally.read(me, shows(me.body as never), `stream change ${i}: /api/user/me`);
      const dashboard = await read(browser, '/api/dashboard');
      tally.read(dashboard, shows((dashboard.body as { user?: never }).user), `stream change ${i}: the dashboard`);
    }
    return tally;
  }

  /** display name, and every fifth trial the wallet (a replacement: the password is checked) → /api/user/me. */
  async function profileThenMe(trials = TRIALS): Promise<Tally> {
    const browser = new Browser(await signUp(p.url, { prefix: 'rwp' }));
    const tally = new Tally();
    let wallet = E2E_WALLET;
    let name = '';
    for (let i = 0; i < trials; i += 1) {
      if (i % 5 === 4) {
        wallet = wallet === E2E_WALLET ? OTHER_WALLET : E2E_WALLET;
        await write(browser, 'PATCH', '/api/user/profile', { walletAddress: wallet, currentPassword: E2E_PASSWORD });
      } else {
        name = `Name ${i}`;
        await write(browser, 'POST', '/api/user/update-profile', { displayName: name });
      }
      const me = await read(browser, '/api/user/me');
      const user = me.body as { displayName: string | null; walletAddress: string | null };
      tally.read(me, user.walletAddress === wallet && (name === '' || user.displayName === name), `profile change ${i}: /api/user/me`);
    }
    return tally;
  }

  it(`shows the writer's own write on their very next read through another gateway, in ${TRIALS} trials of each kind`, async () => {
    const kinds = {
      'submit → dashboard': submitThenDashboard,
      'like → feed': likeThenFeed,
      'follow → following and followers': followThenFollowing,
      'stream time and go-live → me and dashboard': streamThenMe,
      'profile and wallet → me': profileThenMe,
    };
    // RYW_KINDS=like,follow runs only the kinds whose names contain one of the words (while working on one).
    const only = process.env['RYW_KINDS']?.split(',');
    const chosen = Object.entries(kinds).filter(([kind]) => !only || only.some((word) => kind.includes(word)));
    // Warmed first, uncounted: a process that has just started compiles its code on its first requests,
    // which no replica in service does. Then one kind after another, each as one person's writes and reads.
    for (const [, run] of chosen) await run(WARM_UP_TRIALS);
    const tallies: Tally[] = [];
    const seconds: number[] = [];
    for (const [, run] of chosen) {
      const started = performance.now();
      tallies.push(await run());
      seconds.push(Math.round((performance.now() - started) / 100) / 10);
    }
    const report = chosen.map(([kind], i) => ({
      kind,
      reads: tallies[i]!.readMs.length,
      stale: tallies[i]!.stale,
      p99ms: tallies[i]!.p99,
      seconds: seconds[i],
      examples: tallies[i]!.examples,
    }));
    console.log(JSON.stringify(report, null, 2));
    expect(report.map((r) => [r.kind, r.stale, r.examples])).toEqual(report.map((r) => [r.kind, 0, []]));
  }, 600_000);

  it('names the writes in the cookie and the Clipit-After header; a client without cookies sends the header back', async () => {
    const account = await signUp(p.url, { prefix: 'rwh' });
    // Through fetch alone (no cookie jar): the header is the client's to carry.
    const res = await fetch(
      ...asOurPage(p.url, '/api/user/update-profile', {
        method: 'POST',
        headers: { cookie: account.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: 'Header Reader' }),
      }),
    );
    expect(res.status).toBe(200);
    const after = res.headers.get('clipit-after')!;
    expect(after).toMatch(/^[0-9a-f-]{36}:user\.updated:\d+$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('clipit.rw='))!;
    expect(cookie).toMatch(/Max-Age=60/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(decodeURIComponent(/^clipit\.rw=([^;]*)/.exec(cookie)![1]!)).toBe(after);

    // A read that names the write (the header) is answered by the route, fresh; one that names nothing may come from caches.
    const me = await fetch(...asOurPage(reader.httpUrl, '/api/user/me', { headers: { cookie: account.cookie, 'clipit-after': after } }));
    expect(((await me.json()) as { displayName: string }).displayName).toBe('Header Reader');
    expect(me.headers.get('clipit-stale')).toBeNull();
  });

  it('answers Clipit-Stale when a named write never reaches the read model within the bound, and serves the read anyway', async () => {
    const account = await signUp(p.url, { prefix: 'rwx' });
    // An event id no consumer will ever apply, of a type rewards consumes: its dashboard waits 250 ms, then answers.
    const missing = `00000000-0000-4000-8000-${Date.now().toString().padStart(12, '0').slice(-12)}:submission.created`;
    const res = await fetch(
      ...asOurPage(reader.httpUrl, '/api/dashboard', {
        headers: { cookie: account.cookie, 'clipit-after': missing },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('clipit-stale')).toBe('1');
    expect(((await res.json()) as { recentSubmissions: unknown[] }).recentSubmissions).toEqual([]);
  });
});
