import { CONFIG, NATS_CONNECTION, jetstreamManager, metricOnce, metricsRegistry, type NatsConnection } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import type { FeedConfig } from '../config.js';

const lagEvents = metricOnce(
  'feed_projection_lag_events',
  () =>
    new Gauge({
      name: 'feed_projection_lag_events',
      help: 'Events in the stream the read models have not applied yet',
      registers: [metricsRegistry],
    }),
);
const lagSeconds = metricOnce(
  'feed_projection_lag_seconds',
  () =>
    new Gauge({
      name: 'feed_projection_lag_seconds',
      help: 'Age of the oldest event the read models have not applied (0 when none)',
      registers: [metricsRegistry],
    }),
);

export interface Lag {
  events: number;
  seconds: number;
}

/**
 * How far the read models are behind the event stream: the durable consumer's events not yet applied
 * (pending and in flight), and the age of the oldest of them, read from the stream. Measured every few
 * seconds, exported as metrics and in readiness, and answered over gRPC.
 */
@Injectable()
export class LagService {
  private last: Lag = { events: 0, seconds: 0 };
  private measuredAt = 0;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) private readonly config: FeedConfig,
  ) {}

  current(): Lag {
    return this.last;
  }

  /** Lag seen at most `maxAgeMs` ago, measured again if older. */
  async fresh(maxAgeMs = 1000): Promise<Lag> {
    if (Date.now() - this.measuredAt > maxAgeMs) await this.measure();
    return this.last;
  }

  async measure(): Promise<Lag> {
    const jsm = await jetstreamManager(this.nc);
    const info = await jsm.consumers.info(this.config.EVENTS_STREAM, 'feed');
    const events = info.num_pending + info.num_ack_pending;
    let seconds = 0;
    if (events > 0) {
      const oldest = await jsm.streams.getMessage(this.config.EVENTS_STREAM, { seq: info.ack_floor.stream_seq + 1 }).catch(() => null);
      if (oldest) seconds = Math.max(0, (Date.now() - oldest.time.getTime()) / 1000);
    }
    this.last = { events, seconds: Math.round(seconds * 1000) / 1000 };
    this.measuredAt = Date.now();
    lagEvents.set(this.last.events);
    lagSeconds.set(this.last.seconds);
    return this.last;
  }

  /** Readiness: a projection that has fallen behind by more than the allowed lag says so. */
  check(): void {
    const { events, seconds } = this.last;
    if (seconds > this.config.FEED_MAX_LAG_SECONDS) {
      throw new Error(
        `read models are ${events} events and ${seconds.toFixed(1)} s behind the stream (allowed ${this.config.FEED_MAX_LAG_SECONDS} s)`,
      );
    }
  }
}
