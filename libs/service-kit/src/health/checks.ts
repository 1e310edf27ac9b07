import type { NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { HealthCheck } from './health.js';

export function postgresCheck(dataSource: DataSource): HealthCheck {
  return { name: 'postgres', check: async () => void (await dataSource.query('SELECT 1')) };
}

/**
 * NATS with JetStream answers. `optional` for a service with an outbox: its calls go on while NATS is
 * away (events wait in the outbox, the consumer resumes where it stopped), so the outage shows as
 * `degraded` instead of taking every replica out of traffic.
 */
export function natsCheck(nc: NatsConnection, optional = false): HealthCheck {
  return {
    name: 'nats',
    optional,
    check: async () => {
      if (nc.isClosed()) throw new Error('connection closed');
      const jsm = await jetstreamManager(nc);
      await jsm.getAccountInfo();
    },
  };
}

export function redisCheck(redis: Redis): HealthCheck {
  return { name: 'redis', check: async () => void (await redis.ping()) };
}
