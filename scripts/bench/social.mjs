// Benchmark of the social service through the gateway, in two parts:
//  - likes: POST and DELETE /api/feed/clips/:clipId/like (gateway → social, one row per like and the
//    clip's like count kept in the same transaction) from BENCH_USERS signed-in clippers (50 by default)
//    on one clip in the feed, each request another user's cookie, likes and unlikes in turn; against a
//    bare node:http server answering the same-size JSON body, with the same autocannon settings; no ratio
//    when that bare server is broken (an answer not 2xx, an error, under 1,000 req/s, p99 over 1 s).
//  - go-live → notification: a follower holds GET /api/live/stream open; the streamer goes live and
//    offline BENCH_LIVE_TRIALS times (100 by default), each time timing from the go-live request to the
//    `live` event on the follower's stream (social → event stream → gateway's live hub → SSE).
//
//   npm run bench:social     (BENCH_CONNECTIONS=50 BENCH_DURATION=10 BENCH_USERS=50 BENCH_LIVE_TRIALS=100 by default)
//
// It proves likes from many users on one hot clip stay correct (every answer 2xx) at a stated throughput,
// and that a go-live reaches a connected follower well within 5 s (it fails if any trial takes longer).
// npm run bench:social first builds identity, social and the gateway (tsc -b, incremental; the bench imports
// the built libraries too): the only services the likes and the live notices go through. It runs them as
// processes on a Postgres database per service, JetStream stream names, Redis key prefix and storage folder of
// its own, and removes all of them when it ends.
import { randomBytes, randomUUID } from 'node:crypto';
import { subjectFor } from '@clipit/contracts';
import { buildEventEnvelope, connectNats, jetstream } from '@clipit/service-kit';
import { fileURLToPath } from 'node:url';
import { identityEnv, isolatedBackend } from './isolation.mjs';
import { freePort, processGroup, waitReady } from './processes.mjs';
import { runBench, HTTP_STATIC_FLOORS } from './baseline.mjs';
import { log, measure } from './measure.mjs';
import { fetchedSample, SAME_ENCODING, startBareServer } from './services.mjs';
import { approvedClip } from './seed.mjs';
import { openSse } from './sse.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '50'));
const DURATION = Number(env('BENCH_DURATION', '10'));
const USERS = Number(env('BENCH_USERS', '50'));
const TRIALS = Number(env('BENCH_LIVE_TRIALS', '100'));
const SPREAD_CLIPS = Number(env('BENCH_SPREAD_CLIPS', '10'));
const LIVE_LIMIT_MS = 5000;
const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

const group = processGroup(root);
let backend;
let stream;

const run = async (label, opts, baseline) => {
  const result = await measure(label, opts, { connections: CONNECTIONS, duration: DURATION, warmConnections: 4, labelWidth: 34, baseline });
  return result;
};

async function ready(label, args, extraEnv, httpPort) {
  const child = group.start(label, args, extraEnv);
  await waitReady(`http://127.0.0.1:${httpPort}/health/ready`, label, child, 90_000);
}

/** `q` of sorted numbers (nearest rank). */
function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

async function main() {
  backend = await isolatedBackend('benchsocial', { otherDatabases: ['social'] });
  const ports = {};
  for (const name of [
    'identityGrpc',
    'identityHttp',
    // The gateway's clients of submissions, admin and campaigns: nothing listens there. The bench's routes do
    // not reach them, and the gateway's readiness reports them without waiting for them.
    'unused',
    'socialGrpc',
    'socialHttp',
    'gateway',
  ]) {
    ports[name] = await freePort();
  }
  const shared = { ...backend.env, LOG_LEVEL: 'warn' };
  const identityUrl = `127.0.0.1:${ports.identityGrpc}`;

  await ready(
    'identity',
    ['services/identity/dist/main.js'],
    { ...shared, ...identityEnv(backend, { grpcPort: ports.identityGrpc, httpPort: ports.identityHttp }) },
    ports.identityHttp,
  );
  await ready(
    'social',
    ['services/social/dist/main.js'],
    {
      ...shared,
      SOCIAL_DATABASE_URL: backend.databaseUrls.social,
      SOCIAL_GRPC_PORT: String(ports.socialGrpc),
      SOCIAL_HTTP_PORT: String(ports.socialHttp),
      SOCIAL_BIND_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: identityUrl,
    },
    ports.socialHttp,
  );
  await ready(
    'gateway',
    ['services/gateway/dist/main.js'],
    {
      ...shared,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String(ports.gateway),
      IDENTITY_GRPC_URL: identityUrl,
      SUBMISSIONS_GRPC_URL: `127.0.0.1:${ports.unused}`,
      ADMIN_GRPC_URL: `127.0.0.1:${ports.unused}`,
      CAMPAIGNS_GRPC_URL: `127.0.0.1:${ports.unused}`,
      SOCIAL_GRPC_URL: `127.0.0.1:${ports.socialGrpc}`,
      // Every account of the bench signs up from this one address.
      RATE_LIMIT_MAX_PER_IP: '100000',
    },
    ports.gateway,
  );
  const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  // Writes must come from the gateway's own page (the cross-site check).
  const origin = new URL(gatewayUrl).origin;
  const api = (path, { method = 'GET', body, headers = {} } = {}) =>
    fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { origin, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  const tag = `${Date.now().toString(36).slice(-4)}${randomBytes(2).toString('hex')}`;
  async function signUp(role, n) {
    const handle = `${role === 'streamer' ? 'st' : 'cl'}${tag}_${n}`.slice(0, 15);
    const res = await api('/api/auth/signup', {
      method: 'POST',
      body: {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role,
        password: 'a-good-password',
        displayName: `Bench ${role} ${n}`,
      },
    });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    const cookie = /clipit\.sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error('sign-up set no session cookie');
    return { id: (await res.json()).user.id, cookie, handle };
  }

  const t0 = performance.now();
  const users = [];
  for (let n = 0; n < USERS; n += 5)
    users.push(...(await Promise.all(Array.from({ length: Math.min(5, USERS - n) }, (_, i) => signUp('clipper', n + i)))));
  const streamer = await signUp('streamer', 0);
  log(`signed up ${users.length} clippers and a streamer in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Clips in the feed with a playable video, as submissions states them (submission.approved) once a clip's
  // video is processed and an admin adds it to the feed: social takes likes of such clips only. They are
  // published on this run's stream, owned by the first clipper.
  const nc = await connectNats(backend.env.NATS_URL, 'bench-social-clips');
  const js = jetstream(nc);
  const publishClip = async (n) => {
    const id = randomUUID();
    const owner = { id: users[0].id, handle: users[0].handle };
    const envelope = buildEventEnvelope('submission.approved', {
      submission: approvedClip({ id, owner, n, when: new Date().toISOString() }),
    });
    await js.publish(subjectFor('submission.approved', backend.names.subjectPrefix), JSON.stringify(envelope), { msgID: envelope.id });
    return id;
  };
  const clipId = await publishClip(0);

  // Social hears of the approval through events: until it has, the like route answers 409 (the clip is not in
  // the feed), as it does for any clip outside the feed (404 where the clip is unknown altogether).
  const likePath = `/api/feed/clips/${clipId}/like`;
  const fed = performance.now();
  let sample;
  for (;;) {
    const res = await api(likePath, { method: 'POST', headers: { cookie: users[0].cookie } });
    if (res.status === 200) {
      sample = res;
      break;
    }
    const text = await res.text();
    if (res.status !== 404 && res.status !== 409) throw new Error(`like answered ${res.status}: ${text}`);
    if (performance.now() - fed > 30_000) throw new Error('the approved clip did not reach social within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const sampleBody = Buffer.from(await sample.arrayBuffer());
  log(`the clip reached social's feed ${(performance.now() - fed).toFixed(0)} ms after approval (like answer: ${sampleBody})`);
  // Ten more clips, for likes spread over several clips (the hot single clip is the worst case: every
  // like of one clip waits its turn at that clip's count).
  const spread = [];
  for (let c = 0; c < SPREAD_CLIPS; c += 1) spread.push(await publishClip(c + 1));
  await nc.close();
  for (const id of spread) {
    for (let tries = 0; ; tries += 1) {
      const res = await api(`/api/feed/clips/${id}/like`, { method: 'DELETE', headers: { cookie: users[0].cookie } });
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (tries > 300) throw new Error('a spread clip did not reach social');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const unliked = await api(likePath, { method: 'DELETE', headers: { cookie: users[0].cookie } });
  if (unliked.status !== 200) throw new Error(`unlike answered ${unliked.status}: ${await unliked.text()}`);
  await unliked.arrayBuffer();

  // The bare server repeats the like answer: same status, headers and (plain, as fetch decoded them) body
  // bytes; both runs ask for the plain bytes (SAME_ENCODING).
  const bare = await startBareServer(group, 'bare', fetchedSample(sample, sampleBody));

  // Each request is the next user's, and each user likes, then unlikes, then likes again ...
  let sent = 0;
  const likeMix = (baseUrl) => ({
    url: `${baseUrl}${likePath}`,
    headers: SAME_ENCODING,
    requests: [
      {
        setupRequest: (req) => {
          const i = sent;
          sent += 1;
          return {
            ...req,
            method: Math.floor(i / users.length) % 2 === 0 ? 'POST' : 'DELETE',
            headers: { ...req.headers, origin, cookie: users[i % users.length].cookie },
          };
        },
      },
    ],
  });

  log(
    `\nPOST/DELETE ${likePath.replace(clipId, ':clipId')}, ${users.length} users on one clip, ${CONNECTIONS} connections, ${DURATION} s each (${sampleBody.length}-byte body)`,
  );
  const gateway = await run('like/unlike (gateway + social, pg)', likeMix(gatewayUrl));
  const bareResult = await run('bare node:http', likeMix(bare.url), HTTP_STATIC_FLOORS);
  const ratio = gateway.requests.average / bareResult.requests.average;
  log(`\ngateway / bare = ${ratio.toFixed(3)} (${(ratio * 100).toFixed(1)}% of a server that does nothing)`);

  // The same mix over SPREAD_CLIPS clips: user u always toggles clip u % SPREAD_CLIPS.
  let spreadSent = 0;
  await run(`like/unlike over ${SPREAD_CLIPS} clips`, {
    url: `${gatewayUrl}/api/feed/clips/${spread[0]}/like`,
    requests: [
      {
        setupRequest: (req) => {
          const i = spreadSent;
          spreadSent += 1;
          const method = Math.floor(i / users.length) % 2 === 0 ? 'POST' : 'DELETE';
          return {
            ...req,
            method,
            path: `/api/feed/clips/${spread[(i % users.length) % SPREAD_CLIPS]}/like`,
            headers: { ...req.headers, origin, cookie: users[i % users.length].cookie },
          };
        },
      },
    ],
  });
  const final = await api(likePath, { method: 'DELETE', headers: { cookie: users[0].cookie } });
  if (final.status !== 200) throw new Error(`unlike answered ${final.status}: ${await final.text()}`);
  log(`like count after the run: ${(await final.json()).likeCount} (of ${users.length} users)`);

  // go-live → notification: the first clipper follows the streamer and holds the live stream open.
  const follower = users[0];
  const followed = await api(`/api/follow/${streamer.id}`, { method: 'POST', headers: { cookie: follower.cookie } });
  if (followed.status !== 200) throw new Error(`follow answered ${followed.status}: ${await followed.text()}`);
  await followed.arrayBuffer();
  stream = await openSse(`${gatewayUrl}/api/live/stream`, { cookie: follower.cookie });
  await stream.next((e) => e.event === 'snapshot', 0, 10_000);

  const post = async (path) => {
    const res = await api(path, { method: 'POST', headers: { cookie: streamer.cookie } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  const isStreamer = (e) => {
    try {
      return JSON.parse(e.data).id === streamer.id;
    } catch {
      return false;
    }
  };
  const latencies = [];
  for (let trial = 0; trial < TRIALS; trial += 1) {
    let from = stream.length;
    const start = performance.now();
    const live = stream.next((e) => e.event === 'live' && isStreamer(e), from, LIVE_LIMIT_MS);
    live.catch(() => undefined); // awaited below; handled here should the go-live request fail first
    await post('/api/users/go-live');
    const event = await live.catch((err) => {
      throw new Error(`trial ${trial + 1}: no live event within ${LIVE_LIMIT_MS} ms: ${err.message}`);
    });
    latencies.push(event.at - start);
    from = stream.length;
    const offline = stream.next((e) => e.event === 'offline' && isStreamer(e), from, LIVE_LIMIT_MS);
    offline.catch(() => undefined);
    await post('/api/users/go-offline');
    await offline.catch((err) => {
      throw new Error(`trial ${trial + 1}: no offline event within ${LIVE_LIMIT_MS} ms: ${err.message}`);
    });
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const max = sorted[sorted.length - 1];
  log(
    `\ngo-live → live event on a follower's stream (GET /api/live/stream), ${TRIALS} trials, each followed by go-offline → offline event`,
  );
  log(
    `${'go-live notification'.padEnd(34)} p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, max ${max.toFixed(1)} ms`,
  );
  if (max > LIVE_LIMIT_MS) throw new Error(`a go-live took ${max.toFixed(0)} ms to reach the follower (limit ${LIVE_LIMIT_MS} ms)`);
}

await runBench(main, async () => {
  stream?.close();
  await group.stop();
  await backend?.cleanup();
});
