// Container HEALTHCHECK: GET /health/live on the service's own HTTP port (the variable named in
// deploy/launcher/services.mjs, else its default in deploy/.env.example). Exit 0 = healthy.
import { loadConfig } from '../launcher/config.mjs';
import { HEALTH_LIVE_PATH, SERVICES } from '../launcher/services.mjs';

const root = new URL('../..', import.meta.url).pathname;
const name = process.env.SERVICE;
const service = SERVICES.find((s) => s.name === name);
if (!service) {
  console.error(`healthcheck: SERVICE is "${name ?? ''}", not one of ${SERVICES.map((s) => s.name).join(', ')}`);
  process.exit(1);
}
const port = loadConfig(root).get(service.httpPortEnv);
try {
  const res = await fetch(`http://127.0.0.1:${port}${HEALTH_LIVE_PATH}`, { signal: AbortSignal.timeout(2500) });
  if (res.status !== 200) {
    console.error(`healthcheck: ${HEALTH_LIVE_PATH} answered ${res.status}`);
    process.exit(1);
  }
} catch (err) {
  console.error(`healthcheck: ${HEALTH_LIVE_PATH} on port ${port}: ${err.cause?.message ?? err.message}`);
  process.exit(1);
}
