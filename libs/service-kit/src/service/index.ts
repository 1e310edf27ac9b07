export * from './bootstrap.js';
export * from './clients.js';
export * from './grpc-service.js';
export * from './service-config.js';
export * from './tokens.js';
export * from './redis.js';
export * from './redis-connection.js';
