export * from './infra.js';
export * from './postgres.js';
export * from './wait.js';
export * from './ports.js';
export * from './env-example.js';
export * from './cleanup.js';
export * from './automock.js';
export * from './fake-grpc.js';
