import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readTelemetryConfig } from './config.js';
import { resourceAttributes } from './sdk.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const entry = `${root}services/identity/dist/main.js`;

function configFor(env: NodeJS.ProcessEnv, main = entry) {
  const setup = readTelemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', ...env }, main);
  if (!setup.enabled) throw new Error(setup.reason);
  return setup.config;
}

describe('the resource every span carries', () => {
  it("names the service, its version from the service's package.json, the namespace and the instance", () => {
    const { version } = JSON.parse(readFileSync(`${root}services/identity/package.json`, 'utf8')) as { version: string };
    expect(resourceAttributes(configFor({}))).toEqual({
      'service.name': 'identity',
      'service.version': version,
      'service.namespace': 'clipit',
      'service.instance.id': `${hostname()}:${process.pid}`,
    });
  });

  it('lets OTEL_RESOURCE_ATTRIBUTES add attributes and replace the defaults', () => {
    const attributes = resourceAttributes(
      configFor({
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,service.instance.id=pod-7',
        OTEL_SERVICE_NAME: 'identity-canary',
      }),
    );
    expect(attributes).toMatchObject({
      'service.name': 'identity-canary',
      'service.instance.id': 'pod-7',
      'deployment.environment.name': 'prod',
    });
  });

  it('has no version for a named process that is no service', () => {
    expect(resourceAttributes(configFor({ OTEL_SERVICE_NAME: 'replay' }, `${root}scripts/replay.mjs`))['service.version']).toBeUndefined();
  });
});
