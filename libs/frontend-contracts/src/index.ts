export * from './exposes.js';
export * from './remotes.js';
