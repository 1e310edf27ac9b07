import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mediaKeys, type EventEnvelope, type MediaFailedV1, type MediaProcessedV1, type ProcessVideoJob } from '@clipit/contracts';
import { synthesizeClip, type SynthesizeClipSpec } from '@clipit/media';
import { createMediaQueue, enqueueProcessVideo, type MediaQueue } from '@clipit/media-queue';
import { connectEventBus, jetstream, jetstreamManager, type NatsConnection } from '@clipit/service-kit';
import { FsStorageDriver } from '@clipit/storage';
import { deleteEventStreams, freePorts, isolatedNames, isolatedServiceEnv, testInfra, waitFor } from '@clipit/testing';
import type { ConsumerMessages } from '@nats-io/jetstream';
import { bootstrapMediaWorker, type MediaWorkerApp, type MediaWorkerConfigOverrides } from '../../src/app.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export type MediaEventEnvelope = EventEnvelope<'media.processed', MediaProcessedV1> | EventEnvelope<'media.failed', MediaFailedV1>;

export interface ReceivedEvent {
  subject: string;
  msgId: string | undefined;
  envelope: MediaEventEnvelope;
}

/** A media worker started as its own OS process (the built service), for kill and shutdown tests. */
export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  httpPort: number;
}

/**
 * One isolated media pipeline per test file: its own Redis key prefix (so its own queue), stream and
 * subject prefix, storage folder and scratch folder; the producer's queue from @clipit/media; a
 * JetStream consumer collecting every media-worker event; workers in this process or as child
 * processes of the built service.
 */
export class MediaWorkerHarness {
  readonly names = isolatedNames('mediaworker');
  readonly events: ReceivedEvent[] = [];
  readonly workers: MediaWorkerApp[] = [];
  readonly processes: WorkerProcess[] = [];
  storageRoot!: string;
  tmpRoot!: string;
  clipsDir!: string;
  storage!: FsStorageDriver;
  queue!: MediaQueue;
  nc!: NatsConnection;
  private messages: ConsumerMessages | undefined;
  private reading: Promise<void> | undefined;

  /** `natsUrl`: a private NATS (startNatsServer) for outage tests; the run's shared one by default. */
  constructor(private readonly natsUrl: string = testInfra().natsUrl) {}

  async start(): Promise<this> {
    this.storageRoot = await mkdtemp(join(tmpdir(), 'clipit-mw-storage-'));
    this.tmpRoot = await mkdtemp(join(tmpdir(), 'clipit-mw-scratch-'));
    this.clipsDir = await mkdtemp(join(tmpdir(), 'clipit-mw-clips-'));
    this.storage = new FsStorageDriver(this.storageRoot);
    this.queue = createMediaQueue({ redisUrl: testInfra().redisUrl, prefix: this.names.redisKeyPrefix });
    this.nc = await connectEventBus(this.natsUrl, 'media-worker-test', {
      stream: this.names.stream,
      subjectPrefix: this.names.subjectPrefix,
    });
    const consumer = await jetstream(this.nc).consumers.get(this.names.stream, {
      filter_subjects: `${this.names.subjectPrefix}.media-worker.>`,
    });
    const messages = await consumer.consume();
    this.messages = messages;
    this.reading = (async () => {
      for await (const msg of messages) {
        this.events.push({ subject: msg.subject, msgId: msg.headers?.get('Nats-Msg-Id'), envelope: msg.json<MediaEventEnvelope>() });
      }
    })().catch(() => undefined); // a NATS outage may end the reading: outage tests read the stream itself (storedEventCount)
    return this;
  }

  /** The variables a worker of this pipeline runs with. */
  env(httpPort: number, extra: MediaWorkerConfigOverrides = {}): Record<string, string> {
    const vars: MediaWorkerConfigOverrides = {
      ...isolatedServiceEnv(this.names, this.storageRoot),
      NATS_URL: this.natsUrl,
      MEDIA_WORKER_TMP_DIR: this.tmpRoot,
      MEDIA_WORKER_HTTP_PORT: httpPort,
      MEDIA_WORKER_BIND_HOST: '127.0.0.1',
      // A dead worker's job is free again within a few seconds.
      MEDIA_WORKER_LOCK_DURATION_MS: 2000,
      MEDIA_WORKER_STALLED_INTERVAL_MS: 1000,
      LOG_LEVEL: 'warn',
      ...extra,
    };
    return Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)]));
  }

  /** A worker in this process. */
  async startWorker(extra: MediaWorkerConfigOverrides = {}): Promise<MediaWorkerApp> {
    const [port] = (await freePorts(1)) as [number];
    const worker = await bootstrapMediaWorker(this.env(port, extra));
    this.workers.push(worker);
    return worker;
  }

  /** Builds the service (tsc -b, incremental) so child processes run the current code. */
  static build(): void {
    execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-b', `${ROOT}services/media-worker`], { stdio: 'inherit' });
  }

  /** A worker as its own process (services/media-worker/dist/main.js), ready when /health/ready answers 200. */
  async startProcess(extra: MediaWorkerConfigOverrides = {}): Promise<WorkerProcess> {
    const [httpPort] = (await freePorts(1)) as [number];
    const child = spawn(process.execPath, [`${ROOT}services/media-worker/dist/main.js`], {
      cwd: ROOT,
      env: { ...process.env, ...this.env(httpPort, { LOG_LEVEL: 'info', ...extra }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const proc = { child, output: () => output, exited, httpPort };
    this.processes.push(proc);
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${output}`);
        const res = await fetch(`http://127.0.0.1:${httpPort}/health/ready`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      },
      30_000,
      'worker process ready',
    );
    return proc;
  }

  /** Synthesizes a clip, stores it as an upload and queues it, as the submissions service would. */
  async submitClip(spec: Omit<SynthesizeClipSpec, 'path'>): Promise<ProcessVideoJob> {
    const path = join(this.clipsDir, `${randomUUID()}.mp4`);
    await synthesizeClip({ ...spec, path });
    return this.submitFile(path, 'video/mp4');
  }

  async submitFile(path: string, contentType: string): Promise<ProcessVideoJob> {
    const { createReadStream } = await import('node:fs');
    const videoId = randomUUID();
    const job = { videoId, submissionId: randomUUID(), sourceKey: mediaKeys.upload(videoId), contentType };
    await this.storage.put(job.sourceKey, createReadStream(path), contentType);
    await enqueueProcessVideo(this.queue, job);
    return job;
  }

  eventsFor(videoId: string): ReceivedEvent[] {
    return this.events.filter((e) => e.envelope.data.videoId === videoId);
  }

  async waitForEvent(videoId: string, timeoutMs = 60_000): Promise<ReceivedEvent> {
    return waitFor(() => this.eventsFor(videoId)[0], timeoutMs, `an event for video ${videoId}`);
  }

  /** How many messages the stream holds for a video (the consumer above could in principle see redeliveries). */
  async storedEventCount(videoId: string, type: string): Promise<number> {
    const jsm = await jetstreamManager(this.nc);
    const info = await jsm.streams.info(this.names.stream);
    let count = 0;
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage(this.names.stream, { seq }).catch(() => undefined);
      const envelope = msg?.json<MediaEventEnvelope>();
      if (envelope?.type === type && envelope.data.videoId === videoId) count++;
    }
    return count;
  }

  /** Stored object keys under videos/<id>/ (sidecar .meta files left out). */
  async outputsOf(videoId: string): Promise<string[]> {
    try {
      return (await readdir(join(this.storageRoot, 'videos', videoId))).filter((f) => !f.endsWith('.meta')).sort();
    } catch {
      return [];
    }
  }

  async scratchEntries(): Promise<string[]> {
    await mkdir(this.tmpRoot, { recursive: true });
    return readdir(this.tmpRoot);
  }

  async stop(): Promise<void> {
    for (const p of this.processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(this.processes.map((p) => p.exited));
    for (const w of this.workers) await w.close();
    await this.messages?.close();
    await this.reading;
    await this.queue.obliterate({ force: true }).catch(() => undefined);
    await this.queue.close();
    await deleteEventStreams(this.nc, this.names.stream);
    await this.nc.close();
    for (const dir of [this.storageRoot, this.tmpRoot, this.clipsDir]) await rm(dir, { recursive: true, force: true });
  }
}
