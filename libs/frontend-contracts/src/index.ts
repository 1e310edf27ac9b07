export * from './exposes.js';
export * from './remotes.js';
export * from './pages.js';
export * from './links.js';
export * from './site-links.js';
