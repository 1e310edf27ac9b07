export * from './infra.js';
export * from './postgres.js';
export * from './nats.js';
export * from './redis.js';
export * from './preflight.js';
export * from './wait.js';
