// Testcontainers is used only when no server URL was given and a container engine answers;
// on machines where the servers already run (and no engine does) this does nothing.
const started = [];

export const containers = {
  async startIfNeeded() {
    const given = ['TEST_POSTGRES_URL', 'TEST_NATS_URL', 'TEST_REDIS_URL'].some((v) => process.env[v]);
    if (given || process.env.CLIPIT_TEST_CONTAINERS === 'off') return;
    let tc;
    try {
      tc = await import('testcontainers');
      await tc.getContainerRuntimeClient();
    } catch {
      return; // no engine: the servers at the default local URLs are used
    }
    const postgres = await new tc.GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(tc.Wait.forLogMessage(/ready to accept connections/, 2))
      .start();
    const nats = await new tc.GenericContainer('nats:2.10-alpine').withCommand(['-js']).withExposedPorts(4222).start();
    const redis = await new tc.GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    started.push(postgres, nats, redis);
    process.env.TEST_POSTGRES_URL = `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}`;
    process.env.TEST_NATS_URL = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
    process.env.TEST_REDIS_URL = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
  },
  async stop() {
    await Promise.all(started.splice(0).map((c) => c.stop()));
  },
};
