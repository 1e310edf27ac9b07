// The smallest real worker on the kit, for the kit's own integration tests: a `kittest` queue whose jobs
// state a video's refusal (`media.failed`, an event of the catalog with a small payload) after holding for
// `holdMs`. It counts its decisions, so a test can tell a decision made again from one stated again.
import type { EventData, EventEnvelope } from '@clipit/contracts';
import { createJobQueue } from '@clipit/media-queue';
import {
  bootstrapService,
  buildEventEnvelope,
  deterministicEventId,
  LOGGER,
  sharedConfigShape,
  type ConfigOverrides,
  type ServiceApp,
} from '@clipit/service-kit';
import {
  decidedProgressSchema,
  defineWorker,
  keptEventSchema,
  KeptOutcome,
  parseJobData,
  QueueWorker,
  jobMetrics,
  WORKER_EVENTS,
  WORKER_SETTINGS,
  workerConfigShape,
  type Decided,
  type EventSink,
  type JobDone,
  type KeptJob,
  type WorkerSettings,
} from '../../src/index.js';
import { WorkerHarness } from '@clipit/testing';
import { Module } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';

export const KIT_TEST_QUEUE = 'kittest';
export const KIT_TEST_JOB = 'refuse-video';

export const kitTestJobSchema = z.object({ videoId: z.uuid(), submissionId: z.uuid(), holdMs: z.number().int().nonnegative() });
export type KitTestJob = z.infer<typeof kitTestJobSchema>;
export type RefusedEvent = EventEnvelope<'media.failed', EventData<'media.failed'>>;
type KitTestDecided = Decided<RefusedEvent> & { event: RefusedEvent };

const decidedSchema = decidedProgressSchema({ event: keptEventSchema(['media.failed']) });

/** The decision a job of the kit's test worker keeps, as a test writes it into a job (a worker that died after deciding). */
export function refusal(job: KitTestJob, reason = 'decided by an earlier run'): KitTestDecided {
  return {
    stage: 'decided',
    event: buildEventEnvelope(
      'media.failed',
      { videoId: job.videoId, submissionId: job.submissionId, code: 'invalid', reason },
      { id: deterministicEventId('media.failed', job.videoId) },
    ),
  };
}

export class KitTestHandler {
  /** Decisions this process made (a job stated again from its progress makes none). */
  decisions = 0;
  private readonly outcomes: KeptOutcome<RefusedEvent, KitTestDecided>;

  constructor(events: EventSink<RefusedEvent>) {
    this.outcomes = new KeptOutcome({ schema: decidedSchema, events });
  }

  async process(job: KeptJob, signal: AbortSignal): Promise<RefusedEvent> {
    const data = parseJobData(kitTestJobSchema, job, KIT_TEST_JOB);
    const decided = await this.outcomes.decideOnce(job, async () => {
      await new Promise<void>((resolve, reject) => {
        // A shutdown may have begun before this job's hold did: an aborted signal never fires 'abort' again.
        if (signal.aborted) return reject(new Error('stopped'));
        const timer = setTimeout(resolve, data.holdMs);
        signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('stopped'))), { once: true });
      });
      this.decisions += 1;
      const { stage: _stage, ...decision } = refusal(data, 'refused by the kit test worker');
      return decision;
    });
    await this.outcomes.publish(job, decided);
    return decided.event;
  }
}

export const kitTestJobs = jobMetrics(KIT_TEST_QUEUE, { results: 'stated, and the kit’s own', run: 'a hold, then the event published' });

export class KitTestQueueWorker extends QueueWorker<KitTestJob, { eventId: string }> {
  constructor(
    opts: WorkerSettings & { logger: Logger },
    private readonly handler: KitTestHandler,
  ) {
    super(opts, { queue: KIT_TEST_QUEUE, label: 'kit test queue worker', metrics: kitTestJobs });
  }

  protected async runJob(job: Job<KitTestJob, { eventId: string }>, signal: AbortSignal): Promise<JobDone<{ eventId: string }>> {
    const event = await this.handler.process(job, signal);
    return { label: 'stated', result: { eventId: event.id } };
  }
}

@Module({
  providers: [
    { provide: KitTestHandler, useFactory: (events: EventSink<RefusedEvent>) => new KitTestHandler(events), inject: [WORKER_EVENTS] },
    {
      provide: KitTestQueueWorker,
      useFactory: (settings: WorkerSettings, logger: Logger, handler: KitTestHandler) =>
        new KitTestQueueWorker({ ...settings, logger }, handler),
      inject: [WORKER_SETTINGS, LOGGER, KitTestHandler],
    },
  ],
})
class KitTestModule {}

export const kitTestConfigShape = {
  ...sharedConfigShape,
  ...workerConfigShape('KIT_TEST_WORKER', { httpPort: 8199, concurrency: 1, drainSeconds: 5 }),
};

export const kitTestWorker = defineWorker(kitTestConfigShape, {
  name: 'kit-test-worker',
  version: '0.0.0',
  worker: KitTestQueueWorker,
  module: KitTestModule,
});

export type KitTestApp = ServiceApp<z.infer<z.ZodObject<typeof kitTestConfigShape>>>;
export type KitTestOverrides = ConfigOverrides<typeof kitTestConfigShape>;

export const bootstrapKitTestWorker = (overrides: KitTestOverrides): Promise<KitTestApp> => bootstrapService(kitTestWorker, overrides);

export const openKitTestQueue = (redisUrl: string, prefix: string) =>
  createJobQueue<KitTestJob, typeof KIT_TEST_JOB>({
    queue: KIT_TEST_QUEUE,
    connection: { url: redisUrl },
    prefix,
    defaultJobOptions: { attempts: 2 },
  });

export type KitTestHarness = WorkerHarness<KitTestApp, RefusedEvent, ReturnType<typeof openKitTestQueue>, KitTestOverrides>;

/** The kit test worker's pipeline (libs/testing's WorkerHarness); its events are the catalog's media-worker ones. */
export const kitTestHarness = (natsUrl?: string): KitTestHarness =>
  new WorkerHarness({
    service: 'kit-test-worker',
    eventSource: 'media-worker',
    bootstrap: bootstrapKitTestWorker,
    openQueue: openKitTestQueue,
    ...(natsUrl ? { natsUrl } : {}),
  });
