import type { NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { HealthCheck } from './health.js';

export function postgresCheck(dataSource: DataSource): HealthCheck {
  return { name: 'postgres', check: async () => void (await dataSource.query('SELECT 1')) };
}

export function natsCheck(nc: NatsConnection): HealthCheck {
  return {
    name: 'nats',
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
