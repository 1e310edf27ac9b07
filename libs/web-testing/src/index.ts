export * from './render.js';
