// Injection tokens of the gateway's own providers (the kit provides config, logger, Redis and the clients).
export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const SUBMISSION_QUOTA = Symbol('SUBMISSION_QUOTA');
