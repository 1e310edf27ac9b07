export * from './media-queue.js';
