export * from './config.js';
export * from './outcome.js';
export * from './metrics.js';
export * from './queue-worker.js';
export * from './define-worker.js';
