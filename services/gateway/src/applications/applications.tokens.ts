/** The RateLimiter counting clipper applications per address. */
export const APPLICATION_LIMITER = Symbol('APPLICATION_LIMITER');
