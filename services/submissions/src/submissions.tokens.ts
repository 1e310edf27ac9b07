/** Injection tokens of what submissions' start-up opens outside Nest (the kit provides config, logger and database). */
export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');
export const MEDIA_QUEUE = Symbol('MEDIA_QUEUE');
