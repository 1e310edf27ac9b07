import 'reflect-metadata';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger, initMetrics, NestPinoLogger } from '@clipit/service-kit';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { loadGatewayConfig, type GatewayConfig, type GatewayConfigOverrides } from './config.js';
import { installBodyParsers } from './http/body-parsers.js';
import { HttpErrorFilter } from './http/error.filter.js';
import { installRequestPipeline } from './http/request-pipeline.js';

export interface GatewayApp {
  app: NestFastifyApplication;
  config: GatewayConfig;
  log: Logger;
  /** http://host:port the gateway listens on (127.0.0.1 when bound to every interface). */
  url: string;
  close(): Promise<void>;
}

/**
 * Builds and starts the gateway: configuration from the environment with `overrides` on top, then
 * listening on GATEWAY_HOST:GATEWAY_PORT (port 0 = a free one, read back into `url`).
 */
export async function bootstrapGateway(overrides: GatewayConfigOverrides = {}): Promise<GatewayApp> {
  const config = loadGatewayConfig(overrides);
  const log = createLogger('gateway', config.LOG_LEVEL);
  initMetrics('gateway');

  const adapter = new FastifyAdapter({
    logger: false,
    // No Nest middleware here: everything cross-cutting is a Fastify hook, so middie's per-request hook is not needed.
    skipMiddie: true,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // Media keys are up to 512 characters.
    routerOptions: { maxParamLength: 600 },
    // The sign-up form's plugin-wide limits; the route narrows them further.
    multipart: { limits: { fileSize: config.PROFILE_IMAGE_MAX_BYTES, files: 1, parts: 25 } },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, log), adapter, {
    logger: new NestPinoLogger(log),
    bodyParser: false,
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  installBodyParsers(fastify, config.BODY_LIMIT_BYTES);
  installRequestPipeline(fastify, { publicOrigin: config.PUBLIC_ORIGIN, cookieSecure: config.COOKIE_SECURE, log });
  await app.register(fastifyCookie);
  app.useGlobalFilters(new HttpErrorFilter(log));

  await app.listen(config.GATEWAY_PORT, config.GATEWAY_HOST);
  const { port } = fastify.server.address() as AddressInfo;
  const host = ['0.0.0.0', '::', ''].includes(config.GATEWAY_HOST) ? '127.0.0.1' : config.GATEWAY_HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url }, 'gateway listening');

  let closing: Promise<void> | undefined;
  return {
    app,
    config,
    log,
    url,
    close: () => (closing ??= app.close()),
  };
}
