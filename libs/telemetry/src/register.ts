// `node --import @clipit/telemetry/register services/<name>/dist/main.js`: tracing for the whole process,
// set up before the app's first import (an ESM module is instrumented only if the hook sees it load).
// Off (no collector, disabled, or not a service), it returns having loaded nothing else: no hook, no SDK,
// no timer, and the API the kit calls stays a no-op (ADR 0054).
import process from 'node:process';
import { readTelemetryConfig, TelemetryConfigError, type TelemetrySetup } from './config.js';

let setup: TelemetrySetup;
try {
  setup = readTelemetryConfig(process.env, process.argv[1]);
} catch (err) {
  if (!(err instanceof TelemetryConfigError)) throw err;
  // Exit code 78 (EX_CONFIG), as a service's own bad configuration stops it.
  console.error(err.message);
  process.exit(78);
}

// A worker thread (the exporter's own, or one a service starts) loads none of it: its main thread traces the process.
if (setup.enabled && process.getBuiltinModule('node:worker_threads').isMainThread) {
  // With the hook and the SDK loaded, V8's allocation-site pretenuring decided in most of the gateway's starts
  // that objects made for every request live long, and made them in the old generation from then on: a
  // mark-compact every 0.6 s under load, where off there is none, and a cached page's p99 went from 3 to 15 ms
  // (`npm run bench:tracing`, with the gateway's --trace-gc; ADR 0054, section 12). Left in the young generation,
  // a request's garbage is dropped by the next scavenge. Node refuses this flag in NODE_OPTIONS, so it is set
  // here, before the app's first module is loaded; V8 reads it at each scavenge.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--no-allocation-site-pretenuring');
  const { register, supportsSyncHooks } = await import('import-in-the-middle/register-hooks.mjs');
  if (!supportsSyncHooks()) {
    console.error(
      `Tracing needs Node's synchronous module hooks (Node 24.11.1 or newer); this is ${process.version}. ` +
        'Run the Node the project pins, or unset OTEL_EXPORTER_OTLP_ENDPOINT.',
    );
    process.exit(78);
  }
  const { INSTRUMENTED_MODULES } = await import('./hooked-modules.js');
  // A copy: the hook adds the `node:` names to the list it is given.
  register({ include: [...INSTRUMENTED_MODULES] });
  const { startTelemetry } = await import('./sdk.js');
  startTelemetry(setup.config);
}
