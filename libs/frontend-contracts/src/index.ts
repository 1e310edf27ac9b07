export * from './exposes.js';
export * from './remotes.js';
export * from './pages.js';
