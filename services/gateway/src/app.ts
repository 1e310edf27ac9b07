import fastifyCookie from '@fastify/cookie';
import type { FastifyServerFactory, RawServerBase } from 'fastify';
import {
  adminContract,
  campaignsContract,
  developerContract,
  feedContract,
  identityContract,
  rewardsContract,
  socialContract,
  submissionsContract,
} from '@clipit/contracts';
import {
  bootstrapService,
  defineService,
  grpcClient,
  packageVersion,
  REDIS,
  redisResource,
  resource,
  type ServiceApp,
} from '@clipit/service-kit';
import { createStorage, STORAGE } from '@clipit/storage';
import { GatewayModule } from './app.module.js';
import {
  ADMIN_CLIENT,
  CAMPAIGNS_CLIENT,
  DEVELOPER_CLIENT,
  FEED_CLIENT,
  IDENTITY_CLIENT,
  REWARDS_CLIENT,
  SOCIAL_CLIENT,
  SUBMISSIONS_CLIENT,
} from './clients.js';
import { installSessionResolver, SessionResolver } from './auth/session.strategy.js';
import { publicReadFront } from './feed/fast-path.js';
import { PersonalPages } from './feed/personal-pages.js';
import { SESSION_CACHE } from './auth/session-cache.js';
import { DashboardCache } from './rewards/dashboard-cache.js';
import { frontChain, signedInFront } from './front/signed-in-front.js';
import { PublicReadCache } from './feed/read-cache.js';
import { gatewayConfigShape, type GatewayConfig, type GatewayConfigOverrides } from './config.js';
import { installBodyParsers } from './http/body-parsers.js';
import { HttpErrorFilter } from './http/error.filter.js';
import { answerClientError, answerRouterError } from './http/framework-errors.js';
import { serverWithFront, setFrontHandler } from './http/front-door.js';
import { RequestLog } from './http/request-log.js';
import { installRequestPipeline } from './http/request-pipeline.js';

/**
 * gateway: the one origin browsers talk to. The HTTP API (sessions, Origin check, rate limits, one
 * schema per route, text errors, OpenAPI), /media/* from storage and the web apps, over the services' gRPC.
 */
export const gatewayService = defineService(gatewayConfigShape, {
  name: 'gateway',
  version: packageVersion(import.meta.url),
  http: {
    portVariable: 'GATEWAY_PORT',
    hostVariable: 'GATEWAY_HOST',
    bodyParser: false,
    adapter: (config) => ({
      logger: false,
      // No Nest middleware here: everything cross-cutting is a Fastify hook, so middie's per-request hook is not needed.
      skipMiddie: true,
      bodyLimit: config.BODY_LIMIT_BYTES,
      trustProxy: config.TRUST_PROXY,
      // Media keys are up to 512 characters.
      routerOptions: { maxParamLength: 600 },
      // What the router and Node's parser refuse before any hook runs is answered in text too.
      frameworkErrors: answerRouterError,
      clientErrorHandler: answerClientError,
      // The sign-up form's plugin-wide limits; the route narrows them further.
      multipart: { limits: { fileSize: config.PROFILE_IMAGE_MAX_BYTES, files: 1, parts: 25 } },
      // Fastify's own HTTP server, with the public reads' front in it (cached answers before the framework).
      serverFactory: serverWithFront as FastifyServerFactory<RawServerBase>,
    }),
    configure: async (app, { config, logger }) => {
      const fastify = app.getHttpAdapter().getInstance();
      installBodyParsers(fastify, config.BODY_LIMIT_BYTES);
      const requestLog = new RequestLog(logger);
      installRequestPipeline(fastify, { publicOrigin: config.PUBLIC_ORIGIN, cookieSecure: config.COOKIE_SECURE, requestLog });
      installSessionResolver(fastify, app.get(SessionResolver));
      const reads = app.get(PublicReadCache);
      setFrontHandler(
        fastify.server,
        frontChain(
          publicReadFront(reads, requestLog),
          signedInFront({
            sessions: app.get(SESSION_CACHE),
            reads,
            pages: app.get(PersonalPages),
            dashboards: app.get(DashboardCache),
            requestLog,
          }),
        ),
      );
      await app.register(fastifyCookie);
      app.useGlobalFilters(new HttpErrorFilter(logger));
    },
  },
  // NATS: the live stream reads go-live events from it (LiveHub), and the read cache the feed's notices.
  // Neither stops the site without it, so an outage is reported on readiness, not a reason to take the
  // site out of traffic.
  bus: true,
  busReadiness: 'reported',
  resources: [
    // Rate limits: a Redis outage must not stop the gateway from starting (limits answer for themselves).
    redisResource(REDIS, { connectTimeout: 2000, commandTimeout: 2000, enableAutoPipelining: true, tolerateOutage: true }),
    // Serving /media/* needs no bucket set-up, and an object store away at start-up must not stop the site.
    resource('storage', STORAGE, ({ config }) => createStorage(config)),
  ],
  clients: [
    // Every signed-in request resolves its session with identity: without it the gateway is not ready.
    // The probe is a small real read, so readiness means identity answers, not just that it listens.
    grpcClient(identityContract, { token: IDENTITY_CLIENT, url: (c) => c.IDENTITY_GRPC_URL, probe: (identity) => identity.listTokens({}) }),
    // Only the clip routes need submissions: reported, so its outage does not take the whole site out of traffic.
    // Finalizing stats the upload in storage and queues it; give it more than a lookup.
    grpcClient(submissionsContract, {
      token: SUBMISSIONS_CLIENT,
      url: (c) => c.SUBMISSIONS_GRPC_URL,
      deadlineMs: 15_000,
      readiness: 'reported',
    }),
    // The admin area and the clipper applications: reported, each outage takes out only its own pages.
    // A moderation command goes through admin to submissions: give it the time of both calls.
    grpcClient(adminContract, { token: ADMIN_CLIENT, url: (c) => c.ADMIN_GRPC_URL, deadlineMs: 15_000, readiness: 'reported' }),
    grpcClient(campaignsContract, { token: CAMPAIGNS_CLIENT, url: (c) => c.CAMPAIGNS_GRPC_URL, readiness: 'reported' }),
    // Follows, likes and live state: reported, its outage takes out only those buttons and the live notices.
    grpcClient(socialContract, {
      token: SOCIAL_CLIENT,
      url: (c) => c.SOCIAL_GRPC_URL,
      deadlineMs: (c) => c.SOCIAL_GRPC_DEADLINE_MS,
      readiness: 'reported',
    }),
    // Every public read: reported, since cached answers keep being served while it is away.
    grpcClient(feedContract, { token: FEED_CLIENT, url: (c) => c.FEED_GRPC_URL, readiness: 'reported' }),
    // The dashboard, points, earnings and the payout ledger: reported, its outage takes out only those.
    grpcClient(rewardsContract, { token: REWARDS_CLIENT, url: (c) => c.REWARDS_GRPC_URL, readiness: 'reported' }),
    // API keys and webhooks: reported, its outage takes out only the developer routes and /api/v1.
    grpcClient(developerContract, { token: DEVELOPER_CLIENT, url: (c) => c.DEVELOPER_GRPC_URL, readiness: 'reported' }),
  ],
  module: GatewayModule,
});

export type GatewayApp = ServiceApp<GatewayConfig>;

export const bootstrapGateway = (overrides: GatewayConfigOverrides = {}): Promise<GatewayApp> =>
  bootstrapService(gatewayService, overrides);
