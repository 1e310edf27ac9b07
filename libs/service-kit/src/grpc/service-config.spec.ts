import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import * as contracts from '@clipit/contracts';
import { protoFile, type GrpcContract } from '@clipit/contracts';
import { fileURLToPath } from 'node:url';
import { protoDefinition } from './proto.js';
import { GRPC_RETRY_POLICY, GRPC_RETRY_THROTTLING, grpcServiceConfig, retriedMethods } from './service-config.js';

const fixture = fileURLToPath(new URL('../../test/fixtures/balancing.proto', import.meta.url));
const BALANCING = 'balancing.v1.BalancingService';

describe('grpcServiceConfig', () => {
  const config = grpcServiceConfig(protoDefinition(fixture), BALANCING);

  it('balances every call round robin over the addresses of the target', () => {
    expect(config.loadBalancingConfig).toEqual([{ round_robin: {} }]);
  });

  it('gives the retry policy to the methods whose proto says NO_SIDE_EFFECTS or IDEMPOTENT, and to no command', () => {
    expect(config.methodConfig).toEqual([
      {
        name: [
          { service: BALANCING, method: 'Which' },
          { service: BALANCING, method: 'Refuse' },
          { service: BALANCING, method: 'Put' },
        ],
        retryPolicy: {
          maxAttempts: 3,
          initialBackoff: '0.05s',
          maxBackoff: '0.5s',
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ]);
    expect(config.methodConfig.flatMap((m) => m.name.map((n) => n.method))).not.toContain('Record');
  });

  it('throttles retries per channel', () => {
    expect(config.retryThrottling).toEqual({ maxTokens: 100, tokenRatio: 0.1 });
  });

  it('is a service config grpc-js accepts (a channel refuses a bad one when it is made)', () => {
    const made = (serviceConfig: unknown) =>
      new grpc.Client('127.0.0.1:1', grpc.credentials.createInsecure(), { 'grpc.service_config': JSON.stringify(serviceConfig) }).close();
    expect(() => made(config)).not.toThrow();
    expect(() =>
      made({ ...config, methodConfig: [{ ...config.methodConfig[0], retryPolicy: { ...GRPC_RETRY_POLICY, maxAttempts: 1 } }] }),
    ).toThrow(/maxAttempts/);
    expect(() => made({ ...config, retryThrottling: { ...GRPC_RETRY_THROTTLING, maxTokens: 0 } })).toThrow(/maxTokens/);
  });

  it('refuses a service the definition does not hold', () => {
    expect(() => grpcServiceConfig(protoDefinition(fixture), 'balancing.v1.Nothing')).toThrow(/balancing.v1.Nothing/);
    expect(() => grpcServiceConfig(protoDefinition(fixture), 'balancing.v1.Reply')).toThrow(/balancing.v1.Reply/);
  });
});

describe('the methods the kit retries, per contract', () => {
  // Every contract the contracts library exports, so a new one shows here by existing.
  const all = (Object.values(contracts) as unknown[]).filter(
    (value): value is GrpcContract => typeof value === 'object' && value !== null && 'proto' in value && 'serviceName' in value,
  );
  const retried = (contract: GrpcContract) =>
    retriedMethods(protoDefinition(protoFile(contract.proto)), `${contract.packageName}.${contract.serviceName}`);

  // A method listed here is sent again to another replica when its own went away mid-call, so it must be
  // safe to run twice: a read, or a write a repeat only makes again. A command must never appear here, nor
  // a read that writes (ResolveSession* roll and mark sessions seen, AuthenticateKey notes a key's use).
  // A change to this list comes from an `idempotency_level` in proto/ and is reviewed as such (ADR 0054).
  it('lists every read of every contract, and no command', () => {
    expect(Object.fromEntries(all.map((c) => [c.proto, retried(c)]))).toEqual({
      identity: [
        'GetUser',
        'GetUsers',
        'ListSessions',
        'AuthorizeImageUpload',
        'ListTokens',
        'GetToken',
        'ListMyTokens',
        'ListStreamers',
        'ListPlaceholderStreamers',
      ],
      submissions: [
        'ListMySubmissions',
        'GetSubmission',
        'AuthorizeVideoUpload',
        'ListSubmissions',
        'GetMetricsHistory',
        'GetTaggedViewHistories',
        'ListMyAppeals',
        'ListAppeals',
      ],
      admin: [
        'Describe',
        'ListSubmissions',
        'ListPlaceholderStreamers',
        'ListApplications',
        'ListCampaigns',
        'ListAudit',
        'GetSystemMetrics',
        'ListAppeals',
      ],
      campaigns: ['Describe', 'ListApplications', 'ListCampaigns', 'ListCampaignClips', 'GetClipperProfile', 'ListHires'],
      social: ['Describe', 'GetFollowState', 'ListFollowers', 'ListLiveFollowed', 'FollowersAmong'],
      feed: [
        'Describe',
        'ListFeedClips',
        'LikedAmong',
        'LeaderboardPosts',
        'LeaderboardUsers',
        'GetLeaderboardStats',
        'FeaturedClippers',
        'TopStreamers',
        'ListCreators',
        'GetClipperProfile',
        'ListTaggedVideos',
        'GetProjectionLag',
      ],
      rewards: ['Describe', 'GetDashboard', 'GetClipperStats', 'ListEarnings', 'ListPayouts', 'ListTiers', 'ListHolds'],
      developer: ['Describe', 'ListKeys', 'ListEndpoints', 'ListDeliveries'],
    });
  });
});
