// Injection tokens of the gateway's infrastructure (each provided once, in app.module.ts).
export const REDIS = Symbol('REDIS');
export const STORAGE = Symbol('STORAGE');
export const LOGGER = Symbol('LOGGER');
export const RATE_LIMITER = Symbol('RATE_LIMITER');
