export * from './media-queue.js';
export * from './connection.js';
export * from './metrics-queue.js';
export * from './job-queue.js';
