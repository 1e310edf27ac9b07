// Media workers as real OS processes (the built service) sharing one queue: spreading work, a
// worker SIGKILLed in the middle of a job, and SIGTERM while a job runs.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@clipit/testing';
import { MediaWorkerHarness, type WorkerProcess } from '../support/worker-harness.js';

/**
 * Each test waits for ffmpeg to transcode 1080x1920 clips, twice when a worker is killed in the middle: on two
 * cores shared with other test files that can take well over Jest's default minute.
 */
const JOB_TEST_TIMEOUT_MS = 180_000;

/**
 * 4:4:4 H.264, which no phone plays as it is: the worker transcodes it, for seconds, so a test can stop the
 * worker in the middle (a remux is over in a fraction of a second).
 */
const TRANSCODED = { video: { profile: 'high444', pixelFormat: 'yuv444p' } } as const;

/** The pid in a worker's BullMQ name (`<host>:<pid>`), as stored on the jobs it took. */
const pidOf = (processedBy: string | undefined) => Number(processedBy?.split(':').pop());

describe('media worker processes sharing a queue (real Redis, JetStream, ffmpeg)', () => {
  const h = new MediaWorkerHarness();

  beforeAll(async () => {
    MediaWorkerHarness.build();
    await h.start();
  });

  afterAll(async () => {
    await h.stop();
  });

  afterEach(async () => {
    // A failed test must not leave a worker taking the next test's jobs.
    for (const p of h.processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(h.processes.map((p) => p.exited));
  });

  const stopProcess = async (p: WorkerProcess) => {
    p.child.kill('SIGTERM');
    return p.exited;
  };

  /** Waits until the process runs the job's ffmpeg transcode (its scratch folder holds the output being written). */
  const waitUntilTranscoding = (p: WorkerProcess) =>
    waitFor(
      async () => {
        for (const dir of (await readdir(h.tmpRoot)).filter((d) => d.startsWith(`clipit-media-${p.child.pid}-`))) {
          if ((await readdir(join(h.tmpRoot, dir))).includes('video.mp4')) return dir;
        }
        return undefined;
      },
      30_000,
      `worker ${p.child.pid} transcoding`,
    );

  it(
    'spreads jobs over two worker processes, each job done once',
    async () => {
      const [a, b] = await Promise.all([h.startProcess(), h.startProcess()]);
      const jobs = await Promise.all(
        Array.from({ length: 4 }, () => h.submitClip({ durationSeconds: 6, width: 720, height: 1280, withAudio: true, fps: 25 })),
      );
      for (const job of jobs) await h.waitForEvent(job.videoId);
      const processedBy = await Promise.all(jobs.map(async (job) => pidOf((await h.queue.getJob(job.videoId))?.processedBy)));
      expect(new Set(processedBy)).toEqual(new Set([a.child.pid, b.child.pid]));
      // Each video's fingerprint follows in a job of its own (ADR 0048), taken by either worker: once as well.
      for (const job of jobs) await h.waitForFingerprint(job.videoId, 90_000);
      for (const job of jobs) {
        expect(h.eventsFor(job.videoId).map((e) => e.envelope.type)).toEqual(['media.processed', 'media.fingerprinted']);
        expect(await h.storedEventCount(job.videoId, 'media.processed')).toBe(1);
        expect(await h.storedEventCount(job.videoId, 'media.fingerprinted')).toBe(1);
      }
      expect(await Promise.all([stopProcess(a), stopProcess(b)])).toEqual([0, 0]);
    },
    JOB_TEST_TIMEOUT_MS,
  );

  it(
    'finishes the job of a worker SIGKILLed in the middle of it, once, after a worker is started again',
    async () => {
      const doomed = await h.startProcess();
      const job = await h.submitClip({ durationSeconds: 10, width: 1080, height: 1920, withAudio: true, fps: 30, ...TRANSCODED });
      const scratch = await waitUntilTranscoding(doomed);
      expect(pidOf((await h.queue.getJob(job.videoId))?.processedBy)).toBe(doomed.child.pid);

      doomed.child.kill('SIGKILL');
      await doomed.exited;
      expect(h.eventsFor(job.videoId)).toEqual([]);
      expect(await h.storage.stat(job.sourceKey)).toBeDefined(); // nothing was stated, so the upload stays

      const restarted = await h.startProcess();
      // The new process removes the dead one's scratch folder at start.
      expect(await h.scratchEntries()).not.toContain(scratch);
      const { envelope } = await h.waitForEvent(job.videoId, 90_000);
      expect(envelope).toMatchObject({ type: 'media.processed', data: { videoId: job.videoId, width: 1080, height: 1920 } });
      const finished = await waitFor(
        async () => ((await h.queue.getJob(job.videoId))?.finishedOn ? h.queue.getJob(job.videoId) : undefined),
        10_000,
        'job done',
      );
      expect(await finished!.getState()).toBe('completed');
      expect(pidOf(finished!.processedBy)).toBe(restarted.child.pid);
      // The dead worker used up no attempt: the one counted is the one that succeeded (BullMQ counts it on completion).
      expect({
        attemptsMade: finished!.attemptsMade,
        attemptsStarted: finished!.attemptsStarted,
        stalledCounter: finished!.stalledCounter,
      }).toEqual({
        attemptsMade: 1,
        attemptsStarted: 2,
        stalledCounter: 1,
      });

      // Its fingerprint follows, in a job of its own (ADR 0048).
      await h.waitForFingerprint(job.videoId, 90_000);
      // Long enough for another lock expiry and stall check: nothing more may happen.
      await new Promise((r) => setTimeout(r, 4000));
      expect(h.eventsFor(job.videoId).map((e) => e.envelope.type)).toEqual(['media.processed', 'media.fingerprinted']);
      expect(await h.storedEventCount(job.videoId, 'media.processed')).toBe(1);
      expect(await h.storedEventCount(job.videoId, 'media.fingerprinted')).toBe(1);
      expect(await h.storage.stat(job.sourceKey)).toBeUndefined();
      expect(await h.outputsOf(job.videoId)).toEqual(['poster.jpg', 'video.mp4']);
      expect(await h.scratchEntries()).toEqual([]);
      expect(await stopProcess(restarted)).toBe(0);
    },
    JOB_TEST_TIMEOUT_MS,
  );

  it(
    'lets the running job finish on SIGTERM, then exits 0',
    async () => {
      const worker = await h.startProcess({ MEDIA_WORKER_DRAIN_SECONDS: 60 });
      const job = await h.submitClip({ durationSeconds: 8, width: 1080, height: 1920, withAudio: true, fps: 30, ...TRANSCODED });
      await waitUntilTranscoding(worker);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      // It exited only after stating the outcome (the fingerprint job it queued waits for the next worker).
      expect(h.eventsFor(job.videoId).map((e) => e.envelope.type)).toEqual(['media.processed']);
      expect(await (await h.queue.getJob(job.videoId))!.getState()).toBe('completed');
      expect(await h.scratchEntries()).toEqual([]);
    },
    JOB_TEST_TIMEOUT_MS,
  );

  it(
    'puts a job that outlasts the drain time back in the queue, with no attempt used, for the next worker',
    async () => {
      const impatient = await h.startProcess({ MEDIA_WORKER_DRAIN_SECONDS: 0 });
      const job = await h.submitClip({ durationSeconds: 10, width: 1080, height: 1920, withAudio: true, fps: 30, ...TRANSCODED });
      await waitUntilTranscoding(impatient);
      impatient.child.kill('SIGTERM');
      expect(await impatient.exited).toBe(0);
      const queued = await h.queue.getJob(job.videoId);
      expect(await queued!.getState()).toBe('waiting');
      expect(queued!.attemptsMade).toBe(0);
      expect(h.eventsFor(job.videoId)).toEqual([]);
      expect(await h.scratchEntries()).toEqual([]);

      const next = await h.startProcess();
      const { envelope } = await h.waitForEvent(job.videoId, 90_000);
      expect(envelope.type).toBe('media.processed');
      expect(await stopProcess(next)).toBe(0);
    },
    JOB_TEST_TIMEOUT_MS,
  );
});
