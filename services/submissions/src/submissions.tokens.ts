/** Injection tokens for what bootstrap builds outside Nest and hands in. */
export const SUBMISSIONS_CONFIG = Symbol('SUBMISSIONS_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const STORAGE = Symbol('STORAGE');
export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');
export const MEDIA_QUEUE = Symbol('MEDIA_QUEUE');
