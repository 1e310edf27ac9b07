/** Injection tokens for what bootstrap builds outside Nest and hands in. */
export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const STORAGE = Symbol('STORAGE');
