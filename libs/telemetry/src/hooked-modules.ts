/**
 * The modules the ESM hook wraps, those the instrumentations patch (a unit test holds the two together);
 * every other module loads untouched. Builtins count with and without `node:`.
 */
export const INSTRUMENTED_MODULES = ['http', 'https', '@grpc/grpc-js', 'pg', 'pg-pool', 'ioredis'];
