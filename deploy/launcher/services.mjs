// The platform's services in start order: the launcher, the container health check and the deploy-config
// test all read this one list. Adding a service means one entry here, a block in docker-compose.yml, a
// folder k8s/base/services/<name>/ and its variables in deploy/.env.example (the deploy-config test
// checks that they agree).
//
// Every service serves GET /health/live and /health/ready (200 when fine) and /metrics over HTTP on the
// port named by httpPortEnv; the default of every variable lives in deploy/.env.example.

/**
 * @typedef {object} ServiceDef
 * @property {string} name            folder under services/ and the image/Deployment name
 * @property {string} httpPortEnv     variable holding the HTTP port (health and metrics)
 * @property {string} [httpHostEnv]   variable holding the bind address, when the service has one
 * @property {string[]} [portEnvs]    other ports the service listens on (checked free before start)
 * @property {string} [databaseUrlEnv] variable holding the service's own Postgres database URL
 * @property {boolean} [public]       the service whose URL is printed when the platform is up
 * @property {ToolDef[]} [tools]      programs it runs, checked (and installed with apt-get where the launcher can) before start
 * @property {string[]} [requiresEnv] variables it cannot run without and that have no default (a credential): the
 *                                    launcher leaves the service off, saying so, while one of them is unset
 * @property {Record<string, string>} runtime  the process's settings, as variables: Node's NODE_OPTIONS (the tracing
 *                                    preload, ADR 0054, and V8's heap sizes, ADR 0046) and glibc's MALLOC_ARENA_MAX. The
 *                                    launcher, the compose file and the Kubernetes ConfigMaps set the same values (the
 *                                    deploy-config test checks it); an operator's own NODE_OPTIONS comes after them, so it wins
 */

/**
 * @typedef {object} ToolDef
 * @property {string} env          variable naming the program (a name on PATH or a path)
 * @property {string} aptPackage   Debian package that provides it
 */

/**
 * Settings of one service's Node process. First the tracing preload (ADR 0054): `--import` loads it before the
 * service's first module, which an ESM app needs to be instrumented at all; with no collector configured it
 * loads nothing more. The specifier resolves from the working directory (the repository, or /app in an image).
 * Then the memory settings (ADR 0046). Young generation: V8 grows each semi-space up to
 * 16 MB (×3 for the new space) under load and never gives it back while idle; `semiSpaceMb` caps it where the
 * throughput it buys is not needed (left out, V8's default). Old generation: `oldSpaceMb` is the heap limit,
 * sized per service with room over what it holds after load. MALLOC_ARENA_MAX=2: glibc otherwise gives each
 * thread that allocates (libuv's pool, V8's workers) an arena of its own, which keeps freed memory resident.
 * @param {{ oldSpaceMb: number, semiSpaceMb?: number }} sizes
 */
function runtime({ oldSpaceMb, semiSpaceMb }) {
  const semi = semiSpaceMb === undefined ? '' : `--max-semi-space-size=${semiSpaceMb} `;
  return { NODE_OPTIONS: `${TRACING_PRELOAD} ${semi}--max-old-space-size=${oldSpaceMb}`, MALLOC_ARENA_MAX: '2' };
}

/** Node's flag that loads the tracing preload (@clipit/telemetry) into a service's process. */
export const TRACING_PRELOAD = '--import @clipit/telemetry/register';

/** @type {ServiceDef[]} */
export const SERVICES = [
  {
    name: 'identity',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'IDENTITY_HTTP_PORT',
    httpHostEnv: 'IDENTITY_BIND_HOST',
    portEnvs: ['IDENTITY_GRPC_PORT'],
    databaseUrlEnv: 'IDENTITY_DATABASE_URL',
  },
  {
    name: 'submissions',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'SUBMISSIONS_HTTP_PORT',
    httpHostEnv: 'SUBMISSIONS_BIND_HOST',
    portEnvs: ['SUBMISSIONS_GRPC_PORT'],
    databaseUrlEnv: 'SUBMISSIONS_DATABASE_URL',
  },
  {
    // No database and no gRPC: it takes jobs from the media queue in Redis and publishes events.
    name: 'media-worker',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'MEDIA_WORKER_HTTP_PORT',
    httpHostEnv: 'MEDIA_WORKER_BIND_HOST',
    tools: [
      { env: 'FFMPEG_PATH', aptPackage: 'ffmpeg' },
      { env: 'FFPROBE_PATH', aptPackage: 'ffmpeg' },
    ],
  },
  {
    // No database and no gRPC: it takes jobs from the metrics queue in Redis, asks X's API and publishes events.
    // It refuses to start without the X app's bearer token, which has no default: off until one is set.
    name: 'metrics-worker',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'METRICS_WORKER_HTTP_PORT',
    httpHostEnv: 'METRICS_WORKER_BIND_HOST',
    requiresEnv: ['X_API_BEARER_TOKEN'],
  },
  {
    name: 'campaigns',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'CAMPAIGNS_HTTP_PORT',
    httpHostEnv: 'CAMPAIGNS_BIND_HOST',
    portEnvs: ['CAMPAIGNS_GRPC_PORT'],
    databaseUrlEnv: 'CAMPAIGNS_DATABASE_URL',
  },
  {
    // Carries admin commands to submissions, identity and campaigns: started after them.
    name: 'admin',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'ADMIN_HTTP_PORT',
    httpHostEnv: 'ADMIN_BIND_HOST',
    portEnvs: ['ADMIN_GRPC_PORT'],
    databaseUrlEnv: 'ADMIN_DATABASE_URL',
  },
  {
    name: 'social',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'SOCIAL_HTTP_PORT',
    httpHostEnv: 'SOCIAL_BIND_HOST',
    portEnvs: ['SOCIAL_GRPC_PORT'],
    databaseUrlEnv: 'SOCIAL_DATABASE_URL',
  },
  {
    name: 'feed',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'FEED_HTTP_PORT',
    httpHostEnv: 'FEED_BIND_HOST',
    portEnvs: ['FEED_GRPC_PORT'],
    databaseUrlEnv: 'FEED_DATABASE_URL',
  },
  {
    name: 'rewards',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'REWARDS_HTTP_PORT',
    httpHostEnv: 'REWARDS_BIND_HOST',
    portEnvs: ['REWARDS_GRPC_PORT'],
    databaseUrlEnv: 'REWARDS_DATABASE_URL',
  },
  {
    name: 'developer',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'DEVELOPER_HTTP_PORT',
    httpHostEnv: 'DEVELOPER_BIND_HOST',
    portEnvs: ['DEVELOPER_GRPC_PORT'],
    databaseUrlEnv: 'DEVELOPER_DATABASE_URL',
  },
  {
    // No database and no gRPC: it takes jobs from its queue in Redis and publishes events.
    name: 'webhook-worker',
    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),
    httpPortEnv: 'WEBHOOK_WORKER_HTTP_PORT',
    httpHostEnv: 'WEBHOOK_WORKER_BIND_HOST',
  },
  {
    name: 'gateway',
    // The read path allocates the most per request: its young generation keeps V8's default size.
    runtime: runtime({ oldSpaceMb: 384 }),
    httpPortEnv: 'GATEWAY_PORT',
    httpHostEnv: 'GATEWAY_HOST',
    public: true,
  },
];

export const HEALTH_LIVE_PATH = '/health/live';
export const HEALTH_READY_PATH = '/health/ready';

/**
 * A service's process environment with its memory settings (`runtime`, ADR 0046), as the launcher and the
 * benchmarks start it: a variable already set in `env` (.env or the environment) wins, and NODE_OPTIONS given
 * there is added after the service's own, so its flags win too.
 * @param {ServiceDef} service
 * @param {Record<string, string | undefined>} env
 */
export function runtimeEnv(service, env) {
  const merged = { ...service.runtime, ...env };
  const own = service.runtime?.NODE_OPTIONS;
  const given = env.NODE_OPTIONS?.trim();
  if (own) merged.NODE_OPTIONS = given ? `${own} ${given}` : own;
  return merged;
}
