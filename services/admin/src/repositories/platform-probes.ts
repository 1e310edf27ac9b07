import { hostname } from 'node:os';
import type { QueueReader } from '@clipit/media-queue';
import {
  CONFIG,
  consumerOfDlqSubject,
  dlqStreamName,
  dlqSubjects,
  jetstreamManager,
  NATS_CONNECTION,
  type NatsConnection,
  type StreamNames,
} from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { QUEUE_READERS } from '../clients.js';
import type { AdminConfig } from '../config.js';
import { readinessValue, sample, unmeasured, type HealthTarget, type MetricSample } from '../domain/system-metrics.js';

/** The platform's queues admin counts, by name (media and metrics; read-only handles, opened in app.ts). */
export type QueueReaders = ReadonlyMap<string, QueueReader>;

/** A /health/ready that has not answered by then counts as not ready (each check of it is bounded at 2 s). */
const READINESS_TIMEOUT_MS = 3000;
const NATS_TIMEOUT_MS = 3000;
const REDIS_TIMEOUT_MS = 3000;

/** Who this replica is, in system_metric_runs.sampled_by. */
export const REPLICA = `${hostname()}:${process.pid}`;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * What admin measures of the platform, each read-only: every service's /health/ready, the queues'
 * depths in Redis, the dead-letter stream and every durable consumer's lag in JetStream. Each probe
 * answers its samples and never throws: a part that does not answer is a critical sample naming the error.
 */
@Injectable()
export class PlatformProbes {
  private readonly names: StreamNames;

  constructor(
    @Inject(CONFIG) private readonly config: AdminConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(QUEUE_READERS) private readonly queues: QueueReaders,
  ) {
    this.names = { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX };
  }

  /** Every metric, measured side by side. */
  async sampleAll(): Promise<MetricSample[]> {
    const parts = await Promise.all([
      ...this.config.ADMIN_HEALTH_TARGETS.map((t) => this.readiness(t).then((s) => [s])),
      ...[...this.queues].map(([name, reader]) => this.queueDepth(name, reader).then((s) => [s])),
      this.deadLetters().then((s) => [s]),
      this.consumerLag(),
    ]);
    return parts.flat();
  }

  async readiness(target: HealthTarget): Promise<MetricSample> {
    const url = `${target.url}/health/ready`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(READINESS_TIMEOUT_MS), headers: { accept: 'application/json' } });
      const body: unknown = await response.json().catch(() => undefined);
      const checks = typeof body === 'object' && body !== null ? (body as { checks?: unknown }).checks : undefined;
      return sample('readiness', target.name, readinessValue(response.status, body), {
        url,
        httpStatus: response.status,
        ...(checks ? { checks } : {}),
      });
    } catch (err) {
      // No answer at all: not ready, as an orchestrator's probe would see it.
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const error = cause?.code ?? cause?.message ?? (err as Error).message;
      return sample('readiness', target.name, 0, { url, error: `${(err as Error).name === 'TimeoutError' ? 'timed out' : error}` });
    }
  }

  async queueDepth(name: string, reader: QueueReader): Promise<MetricSample> {
    try {
      // BullMQ waits for its connection to be ready before a command: bounded here, so Redis away ends the probe.
      const { depth, ...counts } = await withTimeout(reader.counts(), REDIS_TIMEOUT_MS, 'Redis');
      return sample('queue_depth', name, depth, counts);
    } catch (err) {
      return unmeasured('queue_depth', name, err);
    }
  }

  /** Events parked on the dead-letter stream (kept 30 days), with how many each consumer gave up on. */
  async deadLetters(): Promise<MetricSample> {
    const stream = dlqStreamName(this.names);
    try {
      const jsm = await withTimeout(jetstreamManager(this.nc), NATS_TIMEOUT_MS, 'NATS');
      const info = await withTimeout(
        jsm.streams.info(stream, { subjects_filter: dlqSubjects(this.names) }).catch((err: unknown) => {
          // Not created yet: nothing was ever dead-lettered.
          if (/stream not found/i.test((err as Error).message)) return undefined;
          throw err;
        }),
        NATS_TIMEOUT_MS,
        'NATS',
      );
      const byConsumer: Record<string, number> = {};
      for (const [subject, count] of Object.entries(info?.state.subjects ?? {})) {
        const consumer = consumerOfDlqSubject(this.names, subject);
        byConsumer[consumer] = (byConsumer[consumer] ?? 0) + count;
      }
      return sample('dead_letters', stream, info?.state.messages ?? 0, { byConsumer });
    } catch (err) {
      return unmeasured('dead_letters', stream, err);
    }
  }

  /** Each durable consumer of the event stream: messages not yet delivered plus those delivered and not yet acked. */
  async consumerLag(): Promise<MetricSample[]> {
    try {
      const jsm = await withTimeout(jetstreamManager(this.nc), NATS_TIMEOUT_MS, 'NATS');
      const consumers = await withTimeout(
        (async () => {
          const all = [];
          for await (const c of jsm.consumers.list(this.names.stream)) all.push(c);
          return all;
        })(),
        NATS_TIMEOUT_MS,
        'NATS',
      );
      return consumers
        .filter((c) => c.config.durable_name)
        .map((c) =>
          sample('consumer_lag', c.name, c.num_pending + c.num_ack_pending, {
            numPending: c.num_pending,
            numAckPending: c.num_ack_pending,
            numRedelivered: c.num_redelivered,
            stream: this.names.stream,
          }),
        );
    } catch (err) {
      // Which consumers exist is unknown without NATS: one critical sample stands for all of them.
      return [unmeasured('consumer_lag', 'all consumers', err, { stream: this.names.stream })];
    }
  }
}
