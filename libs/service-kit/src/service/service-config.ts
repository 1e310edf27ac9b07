import { z } from 'zod';
import { env } from '../config/config.js';

// The variables the kit's start-up reads, named after the service's prefix (IDENTITY_HTTP_PORT, …) so
// that every service spells them the same way and `bootstrapService` can find them.

type Keys<P extends string, S extends string> = `${P}_${S}`;

/**
 * `<P>_DATABASE_URL`, `<P>_DB_POOL_SIZE`, `DB_POOL_IDLE_MS` (a pooled connection idle this long is closed,
 * pg's own 10 s by default: a burst's connections do not stay open against PostgreSQL's max_connections)
 * and `DB_MIGRATE_ON_BOOT`: a service's own Postgres database.
 */
export function databaseConfigShape<P extends string>(prefix: P, databaseName: string) {
  return {
    [`${prefix}_DATABASE_URL`]: env.url(`postgres://postgres@127.0.0.1:5432/${databaseName}`, ['postgres', 'postgresql']),
    [`${prefix}_DB_POOL_SIZE`]: env.int(10, 1),
    DB_POOL_IDLE_MS: env.int(10_000, 100),
    DB_MIGRATE_ON_BOOT: env.bool(true),
  } as { [K in Keys<P, 'DATABASE_URL'>]: ReturnType<typeof env.url> } & { [K in Keys<P, 'DB_POOL_SIZE'>]: ReturnType<typeof env.int> } & {
    DB_POOL_IDLE_MS: ReturnType<typeof env.int>;
    DB_MIGRATE_ON_BOOT: ReturnType<typeof env.bool>;
  };
}

/**
 * `<P>_HTTP_PORT` (health, metrics and whatever else the service serves over HTTP) and `<P>_BIND_HOST`
 * (0.0.0.0 in containers, 127.0.0.1 for a laptop or tests); with `grpcPort`, `<P>_GRPC_PORT` too.
 */
export function serverConfigShape<P extends string>(prefix: P, ports: { httpPort: number }): ServerShape<P>;
export function serverConfigShape<P extends string>(
  prefix: P,
  ports: { httpPort: number; grpcPort: number },
): ServerShape<P> & GrpcShape<P>;
export function serverConfigShape<P extends string>(prefix: P, ports: { httpPort: number; grpcPort?: number }): ServerShape<P> {
  return {
    [`${prefix}_HTTP_PORT`]: env.port(ports.httpPort),
    [`${prefix}_BIND_HOST`]: env.bindHost(),
    ...(ports.grpcPort === undefined ? {} : { [`${prefix}_GRPC_PORT`]: env.port(ports.grpcPort) }),
  } as ServerShape<P>;
}

type ServerShape<P extends string> = { [K in Keys<P, 'HTTP_PORT'>]: ReturnType<typeof env.port> } & {
  [K in Keys<P, 'BIND_HOST'>]: ReturnType<typeof env.bindHost>;
};
type GrpcShape<P extends string> = { [K in Keys<P, 'GRPC_PORT'>]: ReturnType<typeof env.port> };

/** Values a test or bench sets over the environment's, by variable name. */
export type ConfigOverrides<S extends z.ZodRawShape> = Partial<Record<keyof S & string, string | number | boolean>>;

export type ConfigOf<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;
