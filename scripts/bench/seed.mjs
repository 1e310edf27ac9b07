// The benchmarks' bulk loader: the rows the platform would hold after many sign-ups, approved clips and
// likes, made by publishing the very events the owning services publish (user.registered,
// submission.approved, social.liked) onto a run's own stream. Every consumer builds its rows from them
// with its own code, so the rows are the ones the real write path leaves.
import { randomUUID } from 'node:crypto';
import { subjectFor } from '@clipit/contracts';
import { buildEventEnvelope, connectNats, ensureEventStreams, jetstream } from '@clipit/service-kit';

/** The wallet every seeded account has (a valid Solana address). */
export const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

/** Runs `tasks` (functions answering promises) with at most `width` at once. */
export async function pool(tasks, width) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) await tasks[next++]();
    }),
  );
}

/** Whether user number `i` of a seed is a streamer (one in twenty; they own no clips, clippers tag them). */
export const isStreamer = (i) => i % 20 === 0;

/**
 * A clip as `submission.approved` carries it once its video is processed and an admin added it to the feed:
 * the state in which the feed lists it and social takes likes of it. `n` varies its name, post and figures.
 */
export function approvedClip({ id, owner, n, when, streamerId = null }) {
  return {
    id,
    userId: owner.id,
    name: `Bench clip ${n}`,
    url: `https://x.com/${owner.handle}/status/${1_000_000_000 + n}`,
    platform: 'twitter',
    externalId: String(1_000_000_000 + n),
    authorHandle: owner.handle,
    walletAddress: WALLET,
    additionalInfo: n % 3 === 0 ? 'A bench clip' : null,
    tokenId: null,
    streamerId,
    status: 'approved',
    addedToFeed: true,
    rejectedReason: null,
    approvedAt: when,
    videoState: 'ready',
    hasVideo: true,
    videoUrl: `/media/videos/${id}/video.mp4`,
    videoThumbnailUrl: `/media/videos/${id}/poster.jpg`,
    videoDuration: 12 + (n % 28),
    videoAspectRatio: '9:16',
    playbackId: id,
    views: (n * 7919) % 50_000,
    likes: n % 97,
    retweets: n % 13,
    replies: n % 7,
    publishedAt: when,
    createdAt: when,
    updatedAt: when,
  };
}

/**
 * The bulk loader: the events identity, submissions and social would publish for `users` users (one in
 * twenty a streamer), `clips` approved clips in the feed with a processed video (its objects at the media
 * worker's keys: the caller stores them, see mediaKeys) and `likes` likes, put on the stream named by
 * `names` ({ stream, subjectPrefix }) as the owners would publish them. Answers the clips' ids and owners.
 *
 * `last` (a Set of user numbers): those users' user.registered and their clips' submission.approved go
 * on the stream after everything else, likes included, from stream sequence `tailFrom` (answered), so a
 * consumer started there builds its rows for them alone (the signed-in benchmark's rewards: only the
 * dashboards it reads). A read model built from every event (the feed's replay) is the same either way:
 * its handlers do not depend on the order (a like is kept by clip id, a clip's like count by time).
 */
export async function seedEvents(natsUrl, names, { users: USERS, clips: CLIPS, likes: LIKES, last = new Set() }) {
  const nc = await connectNats(natsUrl, 'bench-seed');
  await ensureEventStreams(nc, names);
  const js = jetstream(nc);
  const t0 = Date.now() - 3_600_000;
  const at = (ms) => new Date(t0 + ms).toISOString();
  const users = Array.from({ length: USERS }, (_, i) => ({
    id: randomUUID(),
    twitterUsername: `bench_${i}`,
    displayName: `Bench ${i}`,
    firstName: null,
    lastName: null,
    profileImageUrl: null,
    bannerImageUrl: null,
    walletAddress: WALLET,
    role: isStreamer(i) ? 'streamer' : 'clipper',
    currentTier: 1,
    isLive: 'false',
    nextStreamTime: null,
    streamerMultiplier: '1.00',
    isPlaceholder: 'false',
    claimedBy: null,
    claimedAt: null,
    createdAt: at(0),
    updatedAt: at(0),
  }));
  const streamers = users.filter((u) => u.role === 'streamer');
  const clippers = users.filter((u) => u.role === 'clipper');
  let tailFrom = Infinity;
  const publish = (type, data, tail = false) =>
    Object.assign(
      async () => {
        const envelope = buildEventEnvelope(type, data);
        const ack = await js.publish(subjectFor(type, names.subjectPrefix), JSON.stringify(envelope), { msgID: envelope.id });
        if (tail) tailFrom = Math.min(tailFrom, ack.seq);
      },
      { tail },
    );
  const lastIds = new Set([...last].map((i) => users[i]?.id));
  const started = performance.now();
  const userTasks = users.map((user) => publish('user.registered', { user, claimedPlaceholderId: null }, lastIds.has(user.id)));
  const clipIds = [];
  const clipOwners = [];
  const clipTasks = [];
  for (let i = 0; i < CLIPS; i += 1) {
    const id = randomUUID();
    const owner = clippers[i % clippers.length];
    clipIds.push(id);
    clipOwners.push(owner.id);
    const when = at(1000 + i * 10);
    clipTasks.push(
      publish(
        'submission.approved',
        {
          submission: approvedClip({
            id,
            owner: { id: owner.id, handle: owner.twitterUsername },
            n: i,
            when,
            streamerId: i % 4 === 0 ? streamers[i % streamers.length].id : null,
          }),
        },
        lastIds.has(owner.id),
      ),
    );
  }
  const tail = (tasks) => tasks.filter((task) => task.tail);
  const notTail = (tasks) => tasks.filter((task) => !task.tail);
  await pool(notTail(userTasks), 256);
  await pool(notTail(clipTasks), 256);
  const likeTasks = [];
  for (let j = 0; j < LIKES; j += 1) {
    const clip = j % CLIPS;
    const round = Math.floor(j / CLIPS);
    const user = users[(clip * 13 + round * 101) % USERS];
    likeTasks.push(
      publish('social.liked', {
        userId: user.id,
        clipId: clipIds[clip],
        clipOwnerId: clipOwners[clip],
        likeCount: round + 1,
        at: at(2_000_000 + j),
      }),
    );
  }
  await pool(likeTasks, 256);
  // After everything before them (each pool waits for its acks): the tail's sequences are the stream's last.
  await pool(tail(userTasks), 256);
  await pool(tail(clipTasks), 256);
  await nc.drain();
  return { clipIds, clipOwners, users, tailFrom: Number.isFinite(tailFrom) ? tailFrom : undefined, ms: performance.now() - started };
}
