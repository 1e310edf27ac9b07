// What the benchmarks at the size share once the seed is on the stream: the feed's read models
// built by its own replay, and waiting until every service's consumer has worked through the seed.
import { spawn } from 'node:child_process';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { connectNats, jetstreamManager } from '@clipit/service-kit';

/** `npm run feed:replay -- --swap` on `backend`'s feed database (run from `root`): answers its JSON line. */
export async function replayFeed(root, backend) {
  const child = spawn(process.execPath, ['services/feed/dist/replay-main.js', '--swap'], {
    cwd: root,
    env: { ...process.env, ...backend.env, FEED_DATABASE_URL: backend.databaseUrls.feed, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`feed replay exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1));
}

/** Waits until no durable consumer of the stream `names.stream` has an event left to apply. */
export async function untilConsumersCaughtUp(backend, names, timeoutMs = 20 * 60_000) {
  const nc = await connectNats(backend.env.NATS_URL, 'bench-watch');
  try {
    const jsm = await jetstreamManager(nc);
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const behind = [];
      for await (const c of jsm.consumers.list(names.stream))
        if (c.num_pending + c.num_ack_pending > 0) behind.push(`${c.name} ${c.num_pending + c.num_ack_pending}`);
      if (behind.length === 0) return;
      if (performance.now() > deadline) throw new Error(`consumers still behind after ${timeoutMs / 60_000} min: ${behind.join(', ')}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await nc.close();
  }
}

/**
 * Creates the durable consumer `name` (a service's, as its EventConsumer makes it) on the stream of
 * `names`, starting at stream sequence `startSeq` instead of the stream's first event: the service, once
 * started, finds it and goes on from there. For a service whose rows are built another way (the feed's
 * replay does this itself), none of whose events are before `startSeq`, or which is to build rows only
 * for what follows it (seedEvents' tail).
 */
export async function startConsumerAt(backend, names, name, startSeq) {
  const nc = await connectNats(backend.env.NATS_URL, 'bench-consumers');
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.add(names.stream, {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: startSeq,
      filter_subject: `${names.subjectPrefix}.>`,
      ack_wait: 30_000 * 1e6,
      max_deliver: -1,
      max_ack_pending: 1000,
    });
  } finally {
    await nc.close();
  }
}

/** The stream's last sequence now. */
export async function lastSequence(backend, names) {
  const nc = await connectNats(backend.env.NATS_URL, 'bench-consumers');
  try {
    return (await (await jetstreamManager(nc)).streams.info(names.stream)).state.last_seq;
  } finally {
    await nc.close();
  }
}
