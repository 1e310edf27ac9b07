export * from './media-queue.js';
export * from './connection.js';
